import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Download, Plus } from 'lucide-react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { Page } from '@/domain/api';
import type { DictionaryCode } from '@/domain/dictionaries/dictionaries';
import { canDo, pageAccess } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { maxLengthOf } from '@/domain/list-query';
import { createDataTableColumnHelper, DataTable, type DataTableColumns, type DataTablePhone, type RowData } from '@/components/data-table/data-table';
import { ColumnSettings } from '@/components/data-table/column-settings';
import { useDictionary } from '@/components/dictionary/use-dictionary';
import { useListColumnSettings } from '@/components/data-table/use-column-settings';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryError } from '@/components/query-state/query-state';
import { FilterSelect, FilterText, SearchField, SearchForm } from '@/components/search-form/search-form';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { DatePicker } from '@/components/ui/date-picker';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { SelectOption } from '@/components/ui/select';
import { permissionsAtom } from '@/lib/permissions';
import { useShownData } from '@/lib/use-shown-data';
import { showFailure } from '@/lib/query-client';
import type { ListFilters, ListState } from './use-list-state';
import { usePageActions, type PageActions, type ToolbarAction } from './page-actions';
import { rowActionsColumn, type RowAction } from './row-actions';

/**
 * One filter of a list's search row. Text filters take their maxLength from the list-query schema and are trimmed
 * when applied; `className` sets the field's width.
 */
export type FilterDef<F extends ListFilters> =
  | { name: keyof F & string; label: string; type: 'text'; placeholder?: string; className?: string }
  | { name: keyof F & string; label: string; type: 'select'; options: SelectOption[]; className?: string }
  /** A select of a dictionary's entries, the organisation's own included (docs/product-rules.md#dictionaries). */
  | { name: keyof F & string; label: string; type: 'dictionary'; dictionary: DictionaryCode; className?: string }
  /** A local day (YYYY-MM-DD); `after` / `before` name the filters it may not precede / follow (a date range). */
  | { name: keyof F & string; label: string; type: 'date'; after?: keyof F & string; before?: keyof F & string; className?: string };

/**
 * A tab of a list with several views (e.g. the live rows and the recycle bin): the screen gives each view its own
 * columns and query from `state.view`; the view is kept in the URL (`useListState(names, { views })`).
 */
export interface ListView {
  value: string;
  label: ReactNode;
  icon?: ReactNode;
  /** A line above the view's filters. */
  hint?: ReactNode;
}

export type { ToolbarAction } from './page-actions';

/** What a list query hook returns (TanStack Query). */
export interface ListQuery<T> {
  data: Page<T> | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch(): unknown;
}

export interface ListScreenProps<T extends RowData, F extends ListFilters> {
  /** Catalogue page key: title, permissions of the toolbar and row actions. */
  pageKey: string;
  description?: ReactNode;
  state: ListState<F>;
  filters: readonly FilterDef<F>[];
  /** The server's list-query schema (src/domain): maxLength of text filters. */
  querySchema?: z.ZodObject;
  query: ListQuery<T>;
  columns: DataTableColumns<T>;
  rowKey: keyof T | ((row: T) => string | number);
  /** Shows the Add button (with the page's add permission). */
  onAdd?(): void;
  /**
   * Exports the rows of the current filters (with the page's export permission). When the user has changed the list's
   * columns, the filters carry `columns`: the shown column ids in their order, which an export built from the list's
   * columns follows (server/lib/list-export.ts).
   */
  onExport?(filters: F): void | Promise<void>;
  /**
   * What the export's columns are, which its label says: `'list'` an export built from the list's columns that follows
   * the shown ones (the server answers the kit's `sheet`, server/lib/list-export.ts); `'fixed'` a fixed layout (a
   * national template, an import template) that does not; unset, the label only says it exports the current filter.
   */
  exportLayout?: 'list' | 'fixed';
  /** The list's id within its page for the user's column settings (default: the test id and the view, else `list`). */
  listId?: string;
  /** Toolbar buttons after `onAdd`; a name of `actions` places that toolbar action here (unnamed ones follow). */
  toolbar?: readonly (ToolbarAction<T> | string)[];
  /**
   * The page's actions (src/components/list/page-actions.tsx): row buttons in the actions column this list adds at
   * the right, toolbar buttons after `toolbar`, confirmations, toasts, and a refetch of the list after each success.
   */
  actions?: PageActions<T>;
  /**
   * The screen's own row buttons (`editAction`, `deleteAction`, a link to a detail page), in the same actions column
   * as the row actions of `actions`: a name of `actions` places that action among them, unnamed ones follow. Each
   * shows with its catalogue button's permission; past 3 shown, the rest go in the "more" menu. Keep it stable
   * (useMemo) like `columns`. Leave the actions column out of `columns`.
   */
  rowButtons?: readonly (RowAction<T> | string)[];
  /** Header of the actions column ('操作' by default). */
  actionsHeader?: ReactNode;
  /** A checkbox column for bulk actions. */
  selectable?: boolean;
  /** Below 768 px: which columns a row's card shows, or `{ mode: 'scroll' }` (src/components/data-table/data-table-phone.ts). */
  phone?: DataTablePhone;
  /** Tabs over the filter row and table, shown with two or more (pass only the views this user may open). */
  views?: readonly ListView[];
  /**
   * A list that is one section of a larger screen (e.g. a contest's entries under its leaderboard): the title,
   * description and toolbar sit in the card's header instead of a page header. The title is the page's by default.
   */
  section?: { title?: ReactNode };
  /**
   * `false` for a list the server answers whole (its latest N, e.g. the retention runs): no pager, since there is no
   * other page to show.
   */
  paged?: boolean;
  /** Replaces the table's default empty state (e.g. why the list is empty yet). */
  empty?: ReactNode;
  'data-testid'?: string;
}

/**
 * A management list (docs/adding-a-screen.md): page header with the permitted toolbar,
 * the search row built from `filters` (drafted, applied on Search, kept in the URL), the server-paged table with bulk
 * select, and the query's states. A refused or failed reload keeps the rows already shown; a refused filter shows the
 * server's message under its field.
 */
export function ListScreen<T extends RowData, F extends ListFilters>({
  pageKey,
  description,
  state,
  filters,
  querySchema,
  query,
  columns,
  rowKey,
  onAdd,
  onExport,
  exportLayout,
  listId,
  toolbar = [],
  actions,
  rowButtons,
  actionsHeader,
  selectable = false,
  phone,
  views = [],
  section,
  paged = true,
  empty,
  'data-testid': testId,
}: ListScreenProps<T, F>) {
  const { t } = useTranslation(['components', 'menus', 'listSettings']);
  const held = useAtomValue(permissionsAtom);
  const access = pageAccess(pageKey);
  const can = (action: ButtonAction) => canDo(held, pageKey, action);

  // Filters are drafted here and applied on Search; a new URL (back button, link) starts a new draft.
  const [draft, setDraft] = useState<ListFilters>(state.filters);
  const [draftOf, setDraftOf] = useState(state.filters);
  if (draftOf !== state.filters) {
    setDraftOf(state.filters);
    setDraft(state.filters);
  }

  const { data: page, refusedField } = useShownData<Page<T>>(query);

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openDialog, setOpenDialog] = useState<string | null>(null);
  const idOf = useMemo(() => (row: T) => String(typeof rowKey === 'function' ? rowKey(row) : row[rowKey]), [rowKey]);
  const records = page?.records;
  const selectedRows = (records ?? []).filter((r) => selected.has(idOf(r)));

  const declared = usePageActions(pageKey, actions, () => query.refetch());
  const { rowActions, rowNames } = declared;
  // One actions column: the screen's buttons with the map's row actions, in the order `rowButtons` names them.
  const rowButtonList = useMemo(() => {
    if (!rowButtons) return rowActions;
    // A map action sharing a catalogue button with one of the screen's (an edit-like "transfer") gets `row-<name>`.
    const own = new Set(rowButtons.flatMap((b) => (typeof b === 'string' ? [] : [b.action])));
    const byName = new Map(rowNames.map((name, i) => [name, !rowActions[i].testId && own.has(rowActions[i].action) ? { ...rowActions[i], testId: `row-${name}` } : rowActions[i]]));
    const list: RowAction<T>[] = [];
    for (const b of rowButtons) {
      if (typeof b !== 'string') list.push(b);
      else if (byName.has(b)) {
        list.push(byName.get(b)!);
        byName.delete(b);
      }
    }
    return [...list, ...byName.values()];
  }, [rowButtons, rowActions, rowNames]);
  const handColumn = columns.some((c) => c.id === 'actions');
  const withActions = useMemo(() => {
    if (rowButtonList.length === 0 || handColumn) return columns;
    return [...columns, rowActionsColumn<T>({ pageKey, header: actionsHeader ?? t('components:list.actions'), actions: rowButtonList })] as DataTableColumns<T>;
  }, [columns, handColumn, rowButtonList, pageKey, actionsHeader, t]);
  useDevWarning(
    handColumn && rowButtonList.length > 0
      ? `ListScreen ${pageKey}: columns has its own actions column, so the row buttons of \`actions\` / \`rowButtons\` are not shown; give your row buttons as \`rowButtons\` instead (docs/adding-a-screen.md, section 7).`
      : unknownNames(pageKey, actions, rowButtons, toolbar),
  );

  const allColumns = useMemo(() => {
    if (!selectable) return withActions;
    const col = createDataTableColumnHelper<T>();
    const ids = (records ?? []).map(idOf);
    const all = ids.length > 0 && ids.every((id) => selected.has(id));
    const some = !all && ids.some((id) => selected.has(id));
    const select = col.display({
      id: 'select',
      header: () => (
        <Checkbox
          aria-label={t('components:list.selectAll')}
          checked={all ? true : some ? 'indeterminate' : false}
          onCheckedChange={(v) => setSelected(v === true ? new Set(ids) : new Set())}
        />
      ),
      meta: { width: 44 },
      cell: ({ row }) => {
        const id = idOf(row.original);
        return (
          <Checkbox
            aria-label={t('components:list.selectRow')}
            checked={selected.has(id)}
            onCheckedChange={(v) =>
              setSelected((prev) => {
                const next = new Set(prev);
                if (v === true) next.add(id);
                else next.delete(id);
                return next;
              })
            }
          />
        );
      },
    });
    return [select, ...withActions] as DataTableColumns<T>;
  }, [selectable, withActions, records, idOf, selected, t]);

  const tabbed = views.length > 1;
  // Lists of one page (a main list and a linked list in a section, tabs with their own columns) keep their own settings.
  const settingsId = listId ?? ([testId, tabbed ? state.view : undefined].filter(Boolean).join('_') || 'list');
  const columnSettings = useListColumnSettings(`${pageKey}:${settingsId}`, allColumns);
  const view = tabbed ? views.find((v) => v.value === state.view) : undefined;

  const showView = (next: string) => {
    setSelected(new Set());
    state.setView(next);
  };

  const apply = (next: ListFilters) => {
    setSelected(new Set());
    const trimmed = { ...next };
    for (const f of filters) if (f.type === 'text') trimmed[f.name] = next[f.name]?.trim() || undefined;
    state.setFilters(trimmed as F);
  };

  const buttons: ReactNode[] = [];
  if (onAdd && can('add'))
    buttons.push(
      <Button key="add" onClick={onAdd} data-testid="list-add">
        <Plus aria-hidden />
        {t('menus:button.add')}
      </Button>,
    );
  const dialogs: ReactNode[] = [];
  // The map's toolbar buttons this role may use, by name: `toolbar` places some, the others follow it.
  const declaredByName = new Map(declared.toolbar.map((b) => [b.id ?? b.action, b]));
  const toolbarList: ToolbarAction<T>[] = [];
  for (const b of toolbar) {
    if (typeof b !== 'string') toolbarList.push(b);
    else if (declaredByName.has(b)) {
      toolbarList.push(declaredByName.get(b)!);
      declaredByName.delete(b);
    }
  }
  for (const b of [...toolbarList, ...declaredByName.values()]) {
    if (!can(b.action)) continue;
    const id = b.id ?? b.action;
    buttons.push(
      <Button
        key={id}
        variant={b.variant ?? 'outline'}
        disabled={b.needsSelection && selectedRows.length === 0}
        onClick={() => (b.dialog ? setOpenDialog(id) : b.onClick?.(selectedRows))}
        data-testid={`list-${id}`}
      >
        {b.icon}
        {b.label ?? t(`menus:button.${b.action}`)}
      </Button>,
    );
    if (b.dialog) dialogs.push(<Fragment key={id}>{b.dialog({ open: openDialog === id, onOpenChange: (open) => setOpenDialog(open ? id : null) })}</Fragment>);
  }
  if (onExport && can('export')) {
    const shown = exportLayout === 'list' ? columnSettings.exportColumns : undefined;
    const exportHint = t(`listSettings:export.${exportLayout === 'list' ? 'follows' : (exportLayout ?? 'filter')}`, { count: page?.total ?? 0 });
    buttons.push(
      // The browser's own tooltip: a Radix one needs the shell's provider, which lists in tests and stories lack.
      <Button
        key="export"
        variant="outline"
        title={exportHint}
        aria-description={exportHint}
        onClick={() => {
          const filters = (shown ? { ...state.filters, columns: shown.join(',') } : state.filters) as F;
          // Above the organisation's threshold the shell's approval request opens with these filters (src/lib/api-client.ts).
          void Promise.resolve(onExport(filters)).catch(showFailure);
        }}
        data-testid="list-export"
      >
        <Download aria-hidden />
        {t('menus:button.export')}
      </Button>,
    );
  }
  buttons.push(
    <ColumnSettings key="columns" columns={columnSettings.items} settings={columnSettings.settings} resolved={columnSettings.resolved} onChange={columnSettings.change} onReset={columnSettings.reset} />,
  );

  const body = (
    <>
      {view?.hint ? (
        <p className="text-sm text-muted-foreground" data-testid="list-view-hint">
          {view.hint}
        </p>
      ) : null}
      {filters.length > 0 ? (
        <SearchForm onSearch={() => apply(draft)} onReset={() => apply({})}>
          {filters.map((f) =>
            f.type === 'text' ? (
              <FilterText
                key={f.name}
                id={`filter-${f.name}`}
                label={f.label}
                className={f.className}
                placeholder={f.placeholder}
                value={draft[f.name]}
                maxLength={querySchema ? maxLengthOf(querySchema, f.name) : undefined}
                error={refusedField === f.name ? query.error?.message : undefined}
                onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
              />
            ) : f.type === 'date' ? (
              <SearchField key={f.name} label={f.label} htmlFor={`filter-${f.name}`}>
                <DatePicker
                  id={`filter-${f.name}`}
                  className={f.className ?? 'w-40'}
                  value={draft[f.name]}
                  dropdowns={false}
                  min={f.after ? draft[f.after] : undefined}
                  max={f.before ? draft[f.before] : undefined}
                  aria-invalid={refusedField === f.name ? true : undefined}
                  onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
                />
              </SearchField>
            ) : f.type === 'dictionary' ? (
              <DictionaryFilter
                key={f.name}
                label={f.label}
                dictionary={f.dictionary}
                className={f.className ?? 'w-40'}
                value={draft[f.name]}
                onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
              />
            ) : (
              <FilterSelect
                key={f.name}
                label={f.label}
                className={f.className ?? 'w-40'}
                value={draft[f.name]}
                options={f.options}
                onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
              />
            ),
          )}
        </SearchForm>
      ) : null}
      {!page && query.error ? (
        <QueryError message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable
          aria-label={menuLabel(t, access.entry)}
          columns={allColumns}
          data={records}
          rowKey={rowKey}
          loading={query.isFetching}
          pagination={paged ? state.pagination(page?.total ?? 0) : undefined}
          settings={columnSettings.resolved}
          phone={phone}
          empty={empty}
        />
      )}
    </>
  );

  const title = section?.title ?? menuLabel(t, access.entry);
  return (
    <div data-testid={testId ?? 'list-screen'} className="grid grid-cols-[minmax(0,1fr)] gap-4">
      {section ? null : <PageHeader title={title} description={description} actions={buttons.length ? buttons : null} className="pb-0" />}
      <Card>
        {section ? (
          <CardHeader>
            <CardTitle>
              <h2>{title}</h2>
            </CardTitle>
            {description ? <CardDescription>{description}</CardDescription> : null}
            {buttons.length ? <CardAction className="flex flex-wrap gap-2">{buttons}</CardAction> : null}
          </CardHeader>
        ) : null}
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          {tabbed ? (
            // The view below is the active tab's panel, so each tab controls an element that exists.
            <Tabs
              value={state.view}
              onValueChange={showView}
              className="grid grid-cols-[minmax(0,1fr)] gap-4"
            >
              <TabsList>
                {views.map((v) => (
                  <TabsTrigger key={v.value} value={v.value} data-testid={`list-view-${v.value}`}>
                    {v.icon}
                    {v.label}
                  </TabsTrigger>
                ))}
              </TabsList>
              <TabsContent value={state.view} className="grid grid-cols-[minmax(0,1fr)] gap-4">
                {body}
              </TabsContent>
            </Tabs>
          ) : (
            body
          )}
        </CardContent>
      </Card>
      {dialogs}
      {declared.dialog}
    </div>
  );
}

/** A name in `rowButtons` / `toolbar` that is no row / toolbar action of the map: a typo would hide a button. */
function unknownNames<T extends RowData>(pageKey: string, actions: PageActions<T> | undefined, rowButtons: ListScreenProps<T, ListFilters>['rowButtons'], toolbar: ListScreenProps<T, ListFilters>['toolbar']): string | null {
  const bad = [
    ...(rowButtons ?? []).filter((b): b is string => typeof b === 'string' && (!actions?.[b] || actions[b].where === 'toolbar')),
    ...(toolbar ?? []).filter((b): b is string => typeof b === 'string' && (!actions?.[b] || (actions[b].where ?? 'row') === 'row')),
  ];
  return bad.length ? `ListScreen ${pageKey}: ${bad.join(', ')} named in rowButtons / toolbar but not declared there in \`actions\`.` : null;
}

/** In development, says once per message why a list does not show what the screen gave it (never silently). */
function useDevWarning(message: string | null) {
  useEffect(() => {
    if (message && import.meta.env.DEV) console.warn(message);
  }, [message]);
}

/** A filter over a dictionary's codes: every entry, disabled ones too (records may still hold them). */
function DictionaryFilter({ dictionary, ...props }: { label: string; dictionary: DictionaryCode; className: string; value: string | undefined; onChange(value: string | undefined): void }) {
  const dict = useDictionary(dictionary);
  const options = useMemo(() => dict.entries.map((e) => ({ value: e.code, label: dict.label(e.code) })), [dict]);
  return <FilterSelect {...props} options={options} />;
}
