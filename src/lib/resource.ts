import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import { del, download, get, post, put, saveFile, uploadForFile, type DownloadedFile, type Params, type ProgressHandler } from '@/lib/api-client';

/**
 * The browser half of a plain resource (server/lib/resource.ts): list / get / save / delete calls and their TanStack
 * Query hooks, with the list and record invalidated after every write.
 *
 *   const classes = createResource<ClassDetail, ClassForm>({ base: pageApi('k12.org.class') });
 *   classes.useList({ current, size, name });   classes.useGet(id);   classes.useSave(id);   classes.useDelete();
 */
export interface ResourceOptions {
  /** API base of the resource, normally `pageApi(key)` from src/domain/menus/access.ts. */
  base: string;
}

export interface Resource<Row, Save> {
  base: string;
  /** Query key prefix: every query of the resource starts with it. */
  key: readonly unknown[];
  list(query: Params): Promise<Page<Row>>;
  getOne(id: string): Promise<Row>;
  /** Creates (no id) or updates (id). */
  save(values: Save, id?: string): Promise<Row>;
  remove(id: string): Promise<void>;
  /** Downloads `GET /export` of the list's filters (an .xlsx named by the server). */
  exportList(filters: Params): Promise<void>;
  /** Downloads the import template, `GET /import/template`. */
  downloadTemplate(): Promise<void>;
  /** Uploads a workbook to `POST /import`; answers the failures workbook whose name carries the counts (ImportDialog). */
  importFile(file: File, onProgress?: ProgressHandler): Promise<DownloadedFile>;
  /** A page of rows; keeps the previous page on screen while the next loads (and when it fails). */
  useList(query: Params, options?: { enabled?: boolean }): ReturnType<typeof useQuery<Page<Row>>>;
  /** One record; disabled without an id (an add form). */
  useGet(id: string | undefined): ReturnType<typeof useQuery<Row>>;
  useSave(id?: string): ReturnType<typeof useMutation<Row, Error, Save>>;
  useDelete(): ReturnType<typeof useMutation<void, Error, string>>;
}

export function createResource<Row, Save = unknown>({ base }: ResourceOptions): Resource<Row, Save> {
  const key = ['resource', base] as const;
  const list = (query: Params) => get<Page<Row>>(`${base}/page`, query);
  const getOne = (id: string) => get<Row>(`${base}/${encodeURIComponent(id)}`);
  const save = (values: Save, id?: string) => (id ? put<Row>(`${base}/${encodeURIComponent(id)}`, values) : post<Row>(base, values));
  const remove = async (id: string) => {
    await del<null>(`${base}/${encodeURIComponent(id)}`);
  };
  const saveDownload = async (path: string, params?: Params) => saveFile(await download(`${base}${path}`, params), 'download.xlsx');
  return {
    base,
    key,
    list,
    getOne,
    save,
    remove,
    exportList: (filters) => saveDownload('/export', filters),
    downloadTemplate: () => saveDownload('/import/template'),
    importFile: (file, onProgress) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadForFile(`${base}/import`, form, onProgress);
    },
    useList: (query, options) =>
      useQuery({ queryKey: [...key, 'page', query], queryFn: () => list(query), placeholderData: keepPreviousData, enabled: options?.enabled }),
    useGet: (id) => useQuery({ queryKey: [...key, 'one', id], queryFn: () => getOne(id!), enabled: Boolean(id) }),
    useSave: (id) => {
      const client = useQueryClient();
      return useMutation({
        mutationFn: (values: Save) => save(values, id),
        // The form shows the server's field errors itself.
        meta: { silent: true },
        onSuccess: () => client.invalidateQueries({ queryKey: key }),
      });
    },
    useDelete: () => {
      const client = useQueryClient();
      return useMutation({ mutationFn: remove, onSuccess: () => client.invalidateQueries({ queryKey: key }) });
    },
  };
}
