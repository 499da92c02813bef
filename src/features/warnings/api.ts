import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import { pageApi, type Family, type ServedBy } from '@/domain/menus/access';
import type {
  CaseAction,
  CaseDetail,
  CaseOpen,
  CaseRow,
  CaseSave,
  CaseTraining,
  DistrictWarningRow,
  WarningOptions,
  WarningRow,
  WarningSettingsRow,
  WarningSettingsSave,
  WarningSummary,
} from '@/domain/warnings/warnings';
import { download, get, post, put, saveFile, type Params } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

export type WarningFamily = ServedBy<'test.warning'>;
export const warningKey = (family: WarningFamily) => `${family}.test.warning`;

/** physiqueManage/warning (docs/product-rules.md#warnings): the page's cases are its resource; warnings, thresholds and counts are reads beside it. */
export const warningResource = (family: WarningFamily) => createResource<CaseRow, never, CaseDetail>({ base: pageApi(warningKey(family)) });

export function useWarnings(family: WarningFamily, query: Params) {
  const api = warningResource(family);
  return useQuery({ queryKey: [...api.key, 'warnings', query], queryFn: () => get<Page<WarningRow>>(`${api.base}/warnings`, query), placeholderData: keepPreviousData });
}

export async function exportWarnings(family: WarningFamily, filters: Params) {
  saveFile(await download(`${warningResource(family).base}/export`, filters), 'warnings.xlsx');
}

export function useWarningOptions(family: WarningFamily) {
  const api = warningResource(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<WarningOptions>(`${api.base}/options`) });
}

export function useWarningSettings(family: WarningFamily, enabled = true) {
  const api = warningResource(family);
  return useQuery({ queryKey: [...api.key, 'settings'], queryFn: () => get<WarningSettingsRow>(`${api.base}/settings`), enabled });
}

/** Whatever a write changes, the page's reads (list, counts, case) are refetched. */
function useWrite<A, R>(family: WarningFamily, send: (base: string, args: A) => Promise<R>) {
  const client = useQueryClient();
  const api = warningResource(family);
  return useMutation({ mutationFn: (args: A) => send(api.base, args), meta: { silent: true }, onSuccess: () => client.invalidateQueries({ queryKey: api.key }) });
}

export const useSaveSettings = (family: WarningFamily) => useWrite(family, (base, body: WarningSettingsSave) => put<WarningSettingsRow>(`${base}/settings`, body));
export const useOpenCase = (family: WarningFamily) => useWrite(family, (base, body: CaseOpen) => post<CaseDetail>(`${base}/cases`, body));
export const useSaveCase = (family: WarningFamily) => useWrite(family, (base, { id, ...body }: CaseSave & { id: string }) => put<CaseDetail>(`${base}/${id}/case`, body));
export const useCaseAction = (family: WarningFamily) => useWrite(family, (base, { id, ...body }: CaseAction & { id: string }) => post<CaseDetail>(`${base}/${id}/actions`, body));
export const useCaseTraining = (family: WarningFamily) => useWrite(family, (base, { id, ...body }: CaseTraining & { id: string }) => post<CaseDetail>(`${base}/${id}/training`, body));

/** The principal's card on the school data centre (the page's view, or the data centre's). */
export function useWarningSummary(family: WarningFamily) {
  const api = warningResource(family);
  return useQuery({ queryKey: [...api.key, 'summary'], queryFn: () => get<WarningSummary>(`${api.base}/summary`) });
}

/** The district overview's warnings per school. */
export function useDistrictWarnings() {
  return useQuery({ queryKey: ['district-warnings'], queryFn: () => get<DistrictWarningRow[]>(`${pageApi('admin.dataCenter.overview')}/warnings`) });
}

export type { Family };
