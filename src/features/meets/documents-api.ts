import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CertificateIssue, CertificateRow, CertificateSave, PhotoRow, StampRow, StampSave } from '@/domain/meets/documents';
import { pageApi, type SchoolFamily } from '@/domain/menus/access';
import { del, get, post, put } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

/** E-stamps, certificate templates and style photos of meets (docs/product-rules.md#meet-documents). */
const familyBase = (family: SchoolFamily) => pageApi(`${family}.sportsMeet.manage`);

export function useStamps(family: SchoolFamily) {
  const client = useQueryClient();
  const base = `${familyBase(family)}/stamps`;
  const key = ['meets', family, 'stamps'] as const;
  const refresh = () => client.invalidateQueries({ queryKey: key });
  return {
    list: useQuery({ queryKey: key, queryFn: () => get<StampRow[]>(base) }),
    add: useMutation({ mutationFn: (body: StampSave) => post<StampRow>(base, body), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: string) => del<null>(`${base}/${id}`), onSuccess: refresh }),
  };
}

const certificateCache = new Map<SchoolFamily, Resource<CertificateRow, CertificateSave>>();
/** Certificate templates of the organisation. */
export function certificates(family: SchoolFamily): Resource<CertificateRow, CertificateSave> {
  let r = certificateCache.get(family);
  if (!r) certificateCache.set(family, (r = createResource<CertificateRow, CertificateSave>({ base: `${familyBase(family)}/certificates` })));
  return r;
}

export interface IssueMeet {
  id: string;
  name: string;
  events: { id: string; name: string; groupName: string; places: number }[];
}
export function useIssueOptions(family: SchoolFamily, enabled: boolean) {
  return useQuery({ queryKey: [...certificates(family).key, 'issue-options'], queryFn: () => get<IssueMeet[]>(`${certificates(family).base}/issue/options`), enabled });
}
/** Starts issuing the certificates (a job, docs/product-rules.md#jobs); answers the job's id to follow. */
export async function issueCertificates(family: SchoolFamily, templateId: string, body: Partial<CertificateIssue> & { meetId: string }): Promise<string> {
  return (await post<{ id: string }>(`${certificates(family).base}/${templateId}/issue`, body)).id;
}

export function usePhotos(family: SchoolFamily, meetId: string) {
  const client = useQueryClient();
  const base = `${familyBase(family)}/${meetId}/photos`;
  const key = ['meets', family, 'photos', meetId] as const;
  const refresh = () => client.invalidateQueries({ queryKey: key });
  return {
    list: useQuery({ queryKey: key, queryFn: () => get<PhotoRow[]>(base) }),
    add: useMutation({ mutationFn: (fileIds: string[]) => post<PhotoRow[]>(base, { fileIds }), onSuccess: refresh }),
    caption: useMutation({ mutationFn: ({ id, caption, version }: { id: string; caption: string; version: number }) => put<PhotoRow>(`${base}/${id}`, { caption, version }), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: string) => del<null>(`${base}/${id}`), onSuccess: refresh }),
  };
}
