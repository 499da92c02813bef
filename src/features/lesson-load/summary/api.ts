import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import type { LoadCard, LoadDistrict, LoadSummary } from '@/domain/lesson-load/reports';
import { download, get, saveFile, type Params } from '@/lib/api-client';

/** class/load/summary (docs/product-rules.md#lesson-load: reports): a term's figures of a school's lessons. */
export type SummaryFamily = ServedBy<'class.load.summary'>;
export const loadKey = (family: SummaryFamily | 'admin') => `${family}.class.load`;
const summaryBase = (family: SummaryFamily) => `${pageApi(loadKey(family))}/summary`;
const districtBase = () => `${pageApi('admin.class.load')}/schools`;

export function useLoadSummary(family: SummaryFamily, query: Params) {
  return useQuery({ queryKey: [loadKey(family), 'summary', query], queryFn: () => get<LoadSummary>(summaryBase(family), query), placeholderData: keepPreviousData });
}
export async function exportLoadSummary(family: SummaryFamily, query: Params) {
  const file = await download(`${summaryBase(family)}/export`, query);
  saveFile(file, 'lesson-load.xlsx');
}

export function useLoadDistrict(query: Params) {
  return useQuery({ queryKey: ['admin.class.load', 'schools', query], queryFn: () => get<LoadDistrict>(districtBase(), query), placeholderData: keepPreviousData });
}
export async function exportLoadDistrict(query: Params) {
  const file = await download(`${districtBase()}/export`, query);
  saveFile(file, 'lesson-load-district.xlsx');
}

/** The data-centre card's figures: GET …/dataCenter/lessonLoad (cached until a lesson's figures change). */
export function useLoadCard(family: SummaryFamily | 'admin', query: Params) {
  return useQuery({ queryKey: [`${family}.dataCenter`, 'lessonLoad', query], queryFn: () => get<LoadCard>(`/api/busi/web/${family}/dataCenter/lessonLoad`, query) });
}
