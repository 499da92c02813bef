import { useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { Page } from '@/domain/api';
import { pageApi } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import type { DataTableColumns, RowData } from '@/components/data-table/data-table';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TEXT_FILTER_MAX } from '@/domain/list-query';
import { del, get, post, type Params } from '@/lib/api-client';
import { createResource } from '@/lib/resource';
import { toast } from '@/lib/toast';
import { ListScreen, type FilterDef } from './list-screen';
import { rowActionsColumn, type RowAction } from './row-actions';
import type { ListFilters, ListState } from './use-list-state';

/** The records a pick dialog offers for a keyword (a TanStack Query result, or any `{ data }`). */
export interface Candidates<C> {
  data: readonly C[] | undefined;
}

export interface PickManyDialogProps<C> {
  title: ReactNode;
  description: ReactNode;
  searchLabel: string;
  searchPlaceholder?: string;
  /** Called with the trimmed keyword on every render of the dialog: a query hook (e.g. the candidates API). */
  useCandidates(keyword: string): Candidates<C>;
  candidateKey(candidate: C): string;
  /** The candidate's label beside its checkbox. */
  renderCandidate(candidate: C): ReactNode;
  /** `data-testid` of a candidate's checkbox (e2e tests pick by account or serial number). */
  candidateTestId?(candidate: C): string;
  emptyText: ReactNode;
  /** Label of the confirm button (defaults to “confirm”). */
  confirmLabel?: ReactNode;
  /** Adds the chosen records; the dialog closes when it resolves and stays open (busy, then usable) when it rejects. */
  onConfirm(keys: string[]): Promise<unknown>;
  onClose(): void;
  'data-testid'?: string;
}

/** Search, tick several records, confirm: how members, accounts and devices are added to a parent record. */
export function PickManyDialog<C>({
  title,
  description,
  searchLabel,
  searchPlaceholder,
  useCandidates,
  candidateKey,
  renderCandidate,
  candidateTestId,
  emptyText,
  confirmLabel,
  onConfirm,
  onClose,
  'data-testid': testId,
}: PickManyDialogProps<C>) {
  const { t } = useTranslation('common');
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const candidates = useCandidates(keyword.trim());
  const toggle = (key: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm([...chosen]);
      onClose();
    } catch {
      // The API client has shown the server's message; the choice stays for another try.
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Input value={keyword} maxLength={TEXT_FILTER_MAX} placeholder={searchPlaceholder ?? searchLabel} aria-label={searchLabel} onChange={(e) => setKeyword(e.target.value)} />
        <ul className="grid max-h-72 gap-1 overflow-y-auto text-sm">
          {(candidates.data ?? []).map((c) => {
            const key = candidateKey(c);
            const id = `pick-${key}`;
            return (
              <li key={key} className="flex items-start gap-2">
                <Checkbox id={id} className="mt-0.5" checked={chosen.has(key)} onCheckedChange={() => toggle(key)} data-testid={candidateTestId?.(c)} />
                <Label htmlFor={id} className="grid gap-0.5 font-normal">
                  {renderCandidate(c)}
                </Label>
              </li>
            );
          })}
          {candidates.data?.length === 0 ? <li className="text-muted-foreground">{emptyText}</li> : null}
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t('action.cancel')}
          </Button>
          <Button disabled={chosen.size === 0 || busy} onClick={() => void confirm()} data-testid={testId ? `${testId}-confirm` : undefined}>
            {confirmLabel ?? t('action.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Where a linked-records kit declaration's records are (server/lib/linked.ts `path` and `link.ids`). */
export interface LinkedPaths {
  path: string;
  ids: string;
}

export interface LinkedListScreenProps<T extends RowData, F extends ListFilters, C> {
  /** Catalogue page of the owner record; its button `action` guards the list, adding and removing (e.g. the role page's `members`). */
  pageKey: string;
  action: ButtonAction;
  /** The owner record's id (the route's `:id`). */
  owner: string;
  /**
   * The server kit's declaration (server/lib/linked.ts) as the browser needs it: the linked records' path segment
   * under the owner and the link body's ids field. The calls follow from it under `pageApi(pageKey)/{owner}`:
   * `GET {path}` (the list), `GET candidates`, `POST {path}` `{ [ids]: [...] }`, `DELETE {path}/{rowKey}`.
   */
  linked: LinkedPaths;
  /** Other queries the writes change besides the owner page's (e.g. the device list when a venue's devices change). */
  invalidates?: readonly QueryKey[];
  /** Names the parent record (“Members of 体育教研组”). */
  description?: ReactNode;
  state: ListState<F>;
  filters: readonly FilterDef<F>[];
  querySchema?: z.ZodObject;
  /** The linked records' own columns; the remove action is appended. */
  columns: DataTableColumns<T>;
  /** A linked record's id: the list's row key and the id the remove call names. */
  rowKey: keyof T | ((row: T) => string | number);
  actionsHeader: ReactNode;
  /** The row action that unlinks a record (asks first with `confirm`). */
  remove: Omit<RowAction<T>, 'action' | 'destructive' | 'onClick'> & { confirm: NonNullable<RowAction<T>['confirm']> };
  /** The toolbar button and the dialog that links more records; `done` is the (translated) message after linking `count` of them. */
  add: {
    label: ReactNode;
    icon?: ReactNode;
    done?(count: number): string;
    dialog: Omit<PickManyDialogProps<C>, 'onClose' | 'title' | 'useCandidates' | 'onConfirm'>;
  };
  /** A list inside a larger screen (a dialog's section) rather than a page of its own (ListScreen's `section`). */
  section?: { title?: ReactNode };
  'data-testid'?: string;
}

/** The calls of the linked-records kit for one owner, and their queries (keyed under the owner page's resource key). */
function useLinked<T, C>(pageKey: string, owner: string, { path, ids }: LinkedPaths, invalidates: readonly QueryKey[] = []) {
  const client = useQueryClient();
  const base = `${pageApi(pageKey)}/${encodeURIComponent(owner)}`;
  // Under the owner page's resource key: a write refreshes the owner's list too (it counts the linked records).
  const key = createResource({ base: pageApi(pageKey) }).key;
  const onSuccess = () => Promise.all([key, ...invalidates].map((queryKey) => client.invalidateQueries({ queryKey })));
  return {
    useList: (query: Params) =>
      useQuery({ queryKey: [...key, path, owner, 'page', query], queryFn: () => get<Page<T>>(`${base}/${path}`, query), placeholderData: keepPreviousData }),
    useCandidates: (keyword: string) => useQuery({ queryKey: [...key, path, owner, 'candidates', keyword], queryFn: () => get<C[]>(`${base}/candidates`, { keyword }) }),
    link: useMutation({ mutationFn: (keys: string[]) => post<unknown>(`${base}/${path}`, { [ids]: keys }), onSuccess }),
    unlink: useMutation({ mutationFn: (member: string) => del<null>(`${base}/${path}/${encodeURIComponent(member)}`), onSuccess }),
  };
}

/**
 * The records linked to one parent record (role members, department members, a venue's devices): a filtered list with
 * a remove action per row, and an add button opening a search-and-tick dialog. Screens declare columns and texts; the
 * calls are the linked-records kit's (server/lib/linked.ts).
 */
export function LinkedListScreen<T extends RowData, F extends ListFilters, C>({
  pageKey,
  action,
  owner,
  linked,
  invalidates,
  columns,
  rowKey,
  actionsHeader,
  remove,
  add,
  ...list
}: LinkedListScreenProps<T, F, C>) {
  const [adding, setAdding] = useState(false);
  const api = useLinked<T, C>(pageKey, owner, linked, invalidates);
  const query = api.useList(list.state.query);
  // mutateAsync is stable across renders (the mutation result object is not).
  const unlink = api.unlink.mutateAsync;
  const withRemove = useMemo(() => {
    const keyOf = (row: T) => String(typeof rowKey === 'function' ? rowKey(row) : row[rowKey]);
    const onClick = (row: T) => unlink(keyOf(row)).then(() => undefined);
    return [...columns, rowActionsColumn<T>({ pageKey, header: actionsHeader, actions: [{ ...remove, onClick, action, destructive: true }] })] as DataTableColumns<T>;
  }, [columns, rowKey, pageKey, actionsHeader, remove, action, unlink]);
  const onConfirm = async (keys: string[]) => {
    await api.link.mutateAsync(keys);
    if (add.done) toast.success(add.done(keys.length));
  };
  return (
    <>
      <ListScreen pageKey={pageKey} columns={withRemove} rowKey={rowKey} query={query} toolbar={[{ action, label: add.label, icon: add.icon, onClick: () => setAdding(true) }]} {...list} />
      {adding ? <PickManyDialog {...add.dialog} useCandidates={api.useCandidates} onConfirm={onConfirm} title={add.label} onClose={() => setAdding(false)} /> : null}
    </>
  );
}
