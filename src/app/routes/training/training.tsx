import { TrainingDetailScreen, TrainingFormScreen, TrainingListScreen } from '@/features/training/training-screens';

/** specialTraining/specialTrainingList. */
export function TrainingPage() {
  return <TrainingListScreen />;
}
/** specialTraining/specialTrainingList/add. */
export function TrainingFormPage() {
  return <TrainingFormScreen />;
}
/** specialTraining/specialTrainingList/detail/:id. */
export function TrainingDetailPage() {
  return <TrainingDetailScreen />;
}
/** specialTraining/specialTrainingList/detailDataList/:id. */
export function TrainingDataPage() {
  return <TrainingDetailScreen tab="sessions" />;
}
