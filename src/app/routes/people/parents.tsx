export { ParentFormScreen as ParentFormPage, ParentListScreen as ParentPage } from '@/features/people/parents/parent-screens';
