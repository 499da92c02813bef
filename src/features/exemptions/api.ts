import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExemptionDecide, ExemptionOptions, ExemptionRow, ExemptionSave, ExemptionStudentOption } from '@/domain/exemptions/exemptions';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { download, get, put, saveFile } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** physiqueManage/exemption (docs/product-rules.md#physique-year, "Exemptions"). */
export type ExemptionFamily = ServedBy<'test.exemption'>;
export const exemptionKey = (family: ExemptionFamily) => `${family}.test.exemption`;
export const exemptionResource = (family: ExemptionFamily) => createResource<ExemptionRow, ExemptionSave>({ base: pageApi(exemptionKey(family)) });

export function useExemptionOptions(family: ExemptionFamily) {
  const api = exemptionResource(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<ExemptionOptions>(`${api.base}/options`) });
}

/** Students of the requester's classes by name or 学籍号 (the request form's picker). */
export const searchStudents = (family: ExemptionFamily, keyword: string) =>
  get<ExemptionStudentOption[]>(`${exemptionResource(family).base}/students`, keyword ? { keyword } : {});

export function useDecideExemption(family: ExemptionFamily) {
  const client = useQueryClient();
  const api = exemptionResource(family);
  return useMutation({
    mutationFn: ({ id, ...body }: ExemptionDecide & { id: string }) => put<ExemptionRow>(`${api.base}/${id}/decide`, body),
    meta: { silent: true }, // the dialog shows a refusal (a stale decision's 409) itself
    onSuccess: () => client.invalidateQueries({ queryKey: api.key }),
  });
}

/** The standard's application form of one request, as a PDF download. */
export async function downloadForm(family: ExemptionFamily, row: ExemptionRow): Promise<void> {
  saveFile(await download(`${exemptionResource(family).base}/${row.id}/form.pdf`), `${row.name}.pdf`);
}
