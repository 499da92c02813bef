import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsentChange, ConsentCoverage, ConsentOptions, ConsentRecord, ConsentRow } from '@/domain/consent/consent';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { get, put } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** system/consent (docs/product-rules.md#consent). */
export type ConsentFamily = ServedBy<'system.consent'>;
export const consentKey = (family: ConsentFamily) => `${family}.system.consent`;
export const consentResource = (family: ConsentFamily) => createResource<ConsentRow, never>({ base: pageApi(consentKey(family)) });

export function useConsentOptions(family: ConsentFamily) {
  const api = consentResource(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<ConsentOptions>(`${api.base}/options`) });
}

export function useConsentCoverage(family: ConsentFamily, classId: string | undefined) {
  const api = consentResource(family);
  return useQuery({ queryKey: [...api.key, 'coverage', classId ?? ''], queryFn: () => get<ConsentCoverage>(`${api.base}/coverage`, classId ? { classId } : {}) });
}

export function useConsentHistory(family: ConsentFamily, studentId: string) {
  const api = consentResource(family);
  return useQuery({ queryKey: [...api.key, 'history', studentId], queryFn: () => get<ConsentChange[]>(`${api.base}/${studentId}/history`) });
}

/** Records a signed form; the list, the coverage and the history read again. */
export function useRecordConsent(family: ConsentFamily) {
  const client = useQueryClient();
  const api = consentResource(family);
  return useMutation({
    mutationFn: ({ id, ...body }: ConsentRecord & { id: string }) => put<null>(`${api.base}/${id}/record`, body),
    meta: { silent: true }, // the dialog shows a refusal (a stale form's 409) itself
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}
