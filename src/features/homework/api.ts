import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  HomeworkClassCompletion,
  HomeworkDetail,
  HomeworkRow,
  HomeworkSave,
  HomeworkStudentCompletion,
  HomeworkSubmission,
  VideoReview,
} from '@/domain/homework/homework';
import type { Page } from '@/domain/api';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { download, get, post, put, saveFile, type Params } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

/** The homework screens' families: the school publishes, a management organisation reads its schools' homework. */
export type HomeworkFamily = ServedBy<'homework.homeworkManagement'>;

export const homeworkKey = (family: HomeworkFamily) => `${family}.homework.homeworkManagement`;

const cache = new Map<HomeworkFamily, Resource<HomeworkRow, HomeworkSave, HomeworkDetail>>();

/** sportsHomework/homeworkManagement of a family (docs/product-rules.md#homework). */
export function homework(family: HomeworkFamily): Resource<HomeworkRow, HomeworkSave, HomeworkDetail> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<HomeworkRow, HomeworkSave, HomeworkDetail>({ base: pageApi(homeworkKey(family)) })));
  return r;
}

/** The classes the homework form offers (the school's, within the teacher's scope). */
export function useHomeworkOptions() {
  const api = homework('k12');
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<{ classes: { id: string; name: string; gradeNo: number }[] }>(`${api.base}/options`) });
}

export function useClassCompletion(family: HomeworkFamily, id: string) {
  const api = homework(family);
  return useQuery({ queryKey: [...api.key, 'classes', id], queryFn: () => get<HomeworkClassCompletion[]>(`${api.base}/${id}/classes`) });
}

export function useStudentCompletion(family: HomeworkFamily, id: string, query: Params) {
  const api = homework(family);
  return useQuery({
    queryKey: [...api.key, 'students', id, query],
    queryFn: () => get<Page<HomeworkStudentCompletion>>(`${api.base}/${id}/students`, query),
    placeholderData: keepPreviousData,
  });
}

export function useSubmissions(family: HomeworkFamily, id: string, query: Params) {
  const api = homework(family);
  return useQuery({
    queryKey: [...api.key, 'submissions', id, query],
    queryFn: () => get<Page<HomeworkSubmission>>(`${api.base}/${id}/submissions`, query),
    placeholderData: keepPreviousData,
  });
}

/** Ends a homework at once. */
export function useEndHomework() {
  const client = useQueryClient();
  const api = homework('k12');
  return useMutation({ mutationFn: (id: string) => post<HomeworkDetail>(`${api.base}/${id}/end`), onSuccess: () => client.invalidateQueries({ queryKey: api.key }) });
}

/** A teacher's verdict on a submission's video. */
export function useReviewSubmission() {
  const client = useQueryClient();
  const api = homework('k12');
  return useMutation({
    mutationFn: ({ recordId, review }: { recordId: string; review: VideoReview }) => put<unknown>(`${api.base}/submissions/${recordId}/review`, review),
    meta: { silent: true },
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}

/** Where a stored file (a submission video) is played from. */
export const fileContentUrl = (fileId: string) => `/api/uc/oss/files/${fileId}/content`;

/** Downloads the detail (completion per class and per student, submissions) as an .xlsx named by the server. */
export async function exportHomework(family: HomeworkFamily, id: string) {
  saveFile(await download(`${homework(family).base}/${encodeURIComponent(id)}/export`), 'homework.xlsx');
}
