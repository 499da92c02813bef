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
  /**
   * Paths under `base` for a server that does not follow REST (`/page`, `GET|PUT|DELETE /:id`, `POST /`); each write
   * named here is a POST. E.g. `{ get: '/detail', add: '/add', edit: '/edit', remove: '/delete' }` → `GET /detail/:id`,
   * `POST /add`, `POST /edit/:id`, `POST /delete/:id`.
   */
  paths?: { get?: string; add?: string; edit?: string; remove?: string };
}

/** `Row`: a list row; `One`: what get and save answer (the row by default); `Removed`: what delete answers. */
export interface Resource<Row, Save, One = Row, Removed = void> {
  base: string;
  /** Query key prefix: every query of the resource starts with it. */
  key: readonly unknown[];
  list(query: Params): Promise<Page<Row>>;
  getOne(id: string): Promise<One>;
  /** Creates (no id) or updates (id). */
  save(values: Save, id?: string): Promise<One>;
  /** Deletes; answers what the server answers (most answer nothing). */
  remove(id: string): Promise<Removed>;
  /** Downloads `GET /export` of the list's filters (an .xlsx named by the server). */
  exportList(filters: Params): Promise<void>;
  /** Downloads the import template, `GET /import/template`. */
  downloadTemplate(): Promise<void>;
  /** Uploads a workbook to `POST /import`; answers the failures workbook whose name carries the counts (ImportDialog). */
  importFile(file: File, onProgress?: ProgressHandler): Promise<DownloadedFile>;
  /** A page of rows; keeps the previous page on screen while the next loads (and when it fails). */
  useList(query: Params, options?: { enabled?: boolean }): ReturnType<typeof useQuery<Page<Row>>>;
  /** One record; disabled without an id (an add form). `refetchInterval` polls while the record says so. */
  useGet(id: string | undefined, options?: { refetchInterval?: (one: One | undefined) => number | false }): ReturnType<typeof useQuery<One>>;
  /** `silent` (default): the form shows the server's field errors itself; `false` leaves them to the query client's toast. */
  useSave(id?: string, options?: { silent?: boolean }): ReturnType<typeof useMutation<One, Error, Save>>;
  useDelete(): ReturnType<typeof useMutation<Removed, Error, string>>;
}

export function createResource<Row, Save = unknown, One = Row, Removed = void>({ base, paths = {} }: ResourceOptions): Resource<Row, Save, One, Removed> {
  const key = ['resource', base] as const;
  const at = (path: string | undefined, id: string) => `${base}${path ?? ''}/${encodeURIComponent(id)}`;
  const list = (query: Params) => get<Page<Row>>(`${base}/page`, query);
  const getOne = (id: string) => get<One>(at(paths.get, id));
  const save = (values: Save, id?: string) => {
    if (id) return paths.edit ? post<One>(at(paths.edit, id), values) : put<One>(at(undefined, id), values);
    return post<One>(`${base}${paths.add ?? ''}`, values);
  };
  const remove = (id: string) => (paths.remove ? post<Removed>(at(paths.remove, id)) : del<Removed>(at(undefined, id)));
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
    useGet: (id, options) =>
      useQuery<One>({
        queryKey: [...key, 'one', id],
        queryFn: () => getOne(id!),
        enabled: Boolean(id),
        refetchInterval: (query) => options?.refetchInterval?.(query.state.data) ?? false,
      }),
    useSave: (id, options) => {
      const client = useQueryClient();
      return useMutation({
        mutationFn: (values: Save) => save(values, id),
        meta: { silent: options?.silent ?? true },
        onSuccess: () => client.invalidateQueries({ queryKey: key }),
      });
    },
    useDelete: () => {
      const client = useQueryClient();
      return useMutation({ mutationFn: remove, onSuccess: () => client.invalidateQueries({ queryKey: key }) });
    },
  };
}
