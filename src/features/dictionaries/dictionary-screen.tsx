import { useCallback, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DICTIONARIES,
  DICTIONARY_CODES,
  dictionaryEntryCreateSchema,
  dictionaryEntryListQuery,
  dictionaryEntryUpdateSchema,
  dictionaryNameKey,
  entryLabel,
  type DictionaryCode,
  type DictionaryEntry,
  type DictionaryEntryForm,
} from '@/domain/dictionaries/dictionaries';
import { toLocale } from '@/domain/i18n/language';
import type { ServedBy } from '@/domain/menus/access';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { dictionaryKey } from '@/components/dictionary/use-dictionary';
import { FieldGroup, RadioField, TextField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ListScreen } from '@/components/list/list-screen';
import { deleteAction, editAction, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { dictionaryEntries } from './api';

type Filters = { dictionary?: string };
const col = createDataTableColumnHelper<DictionaryEntry>();
// Platform entries and the dictionaries' names come from the areas' namespaces (docs/product-rules.md#dictionaries).
const NAMESPACES = ['dictionaries', 'venue', 'people', 'school', 'exemptions', 'components'];

/**
 * system/dictionary (字典管理, docs/product-rules.md#dictionaries): the dictionaries on the left, the chosen one's
 * entries on the right (the platform's and the ancestors' read-only with a badge; the organisation's own with edit
 * and delete); an extendable dictionary takes new entries.
 */
export function DictionaryScreen({ family }: { family: ServedBy<'system.dictionary'> }) {
  const { t, i18n } = useTranslation(NAMESPACES);
  const locale = toLocale(i18n.language);
  const key = `${family}.system.dictionary`;
  const api = dictionaryEntries(family);
  const state = useListState<Filters>(['dictionary']);
  const dictionary = (DICTIONARY_CODES as readonly string[]).includes(state.filters.dictionary ?? '') ? (state.filters.dictionary as DictionaryCode) : DICTIONARY_CODES[0];
  const query = api.useList({ ...state.query, dictionary });
  const remove = api.useDelete();
  const client = useQueryClient();
  // The selects of the console read the dictionary through its own query: refresh it after a change.
  const refreshSelects = useCallback(() => client.invalidateQueries({ queryKey: dictionaryKey(dictionary) }), [client, dictionary]);
  const [editing, setEditing] = useState<DictionaryEntry | 'new' | null>(null);
  const extendable = DICTIONARIES[dictionary].extendable;

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('dictionaries:column.code'), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
        col.display({ id: 'label', header: t('dictionaries:column.label'), cell: ({ row }) => <span className="font-medium">{entryLabel(row.original, locale, t)}</span> }),
        col.accessor('sort', { header: t('dictionaries:column.sort'), meta: { align: 'right' } }),
        col.accessor('enabled', {
          header: t('dictionaries:column.enabled'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'success' : 'secondary'}>{t(getValue() ? 'dictionaries:state.enabled' : 'dictionaries:state.disabled')}</Badge>,
        }),
        col.accessor('origin', {
          header: t('dictionaries:column.origin'),
          cell: ({ row }) => (
            <Badge variant={row.original.origin === 'own' ? 'default' : 'outline'} data-testid={`origin-${row.original.origin}`}>
              {t(`dictionaries:origin.${row.original.origin}`, { org: row.original.orgName ?? '' })}
            </Badge>
          ),
        }),
      ]),
    [t, locale],
  );
  const rowButtons = useMemo<RowAction<DictionaryEntry>[]>(
    () => [
      { ...editAction<DictionaryEntry>((r) => setEditing(r)), hidden: (r) => r.origin !== 'own' },
      {
        ...deleteAction<DictionaryEntry>(
          (r) => ({ title: t('dictionaries:deleteTitle', { name: entryLabel(r, locale, t) }), description: t('dictionaries:deleteText') }),
          async (r) => {
            await remove.mutateAsync(r.id);
            await refreshSelects();
          },
        ),
        hidden: (r) => r.origin !== 'own',
      },
    ],
    [t, locale, remove, refreshSelects],
  );

  return (
    <div className="grid gap-4 lg:grid-cols-[14rem_minmax(0,1fr)]" data-testid="dictionary-screen">
      <nav aria-label={t('dictionaries:dictionaries')} className="rounded-lg border bg-card p-2">
        <ul className="grid gap-1">
          {DICTIONARY_CODES.map((code) => (
            <li key={code}>
              <button
                type="button"
                aria-current={code === dictionary ? 'true' : undefined}
                data-testid={`dictionary-${code}`}
                onClick={() => state.setFilters({ dictionary: code })}
                className={cn(
                  'flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  code === dictionary && 'bg-accent font-medium',
                )}
              >
                <span>{t(dictionaryNameKey(code))}</span>
                <Badge variant={DICTIONARIES[code].extendable ? 'default' : 'outline'} className="shrink-0">
                  {t(DICTIONARIES[code].extendable ? 'dictionaries:kind.extendable' : 'dictionaries:kind.platform')}
                </Badge>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <ListScreen
        pageKey={key}
        section={{ title: t(dictionaryNameKey(dictionary)) }}
        description={extendable ? t('dictionaries:description') : t('dictionaries:readOnly')}
        state={state}
        querySchema={dictionaryEntryListQuery}
        filters={[]}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={extendable ? () => setEditing('new') : undefined}
        rowButtons={rowButtons}
        listId="entries"
        data-testid="dictionary-entries"
      />
      {editing ? (
        <EntryDialog
          family={family}
          dictionary={dictionary}
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refreshSelects}
        />
      ) : null}
    </div>
  );
}

function EntryDialog({
  family,
  dictionary,
  entry,
  onClose,
  onSaved,
}: {
  family: ServedBy<'system.dictionary'>;
  dictionary: DictionaryCode;
  entry: DictionaryEntry | null;
  onClose(): void;
  onSaved(): unknown;
}) {
  const { t } = useTranslation(NAMESPACES);
  const save = dictionaryEntries(family).useSave(entry?.id, { silent: true });
  const defaults: DictionaryEntryForm = entry
    ? {
        dictionary,
        code: entry.code,
        labelZhCn: entry.labels?.zh_cn ?? '',
        labelZhTw: entry.labels?.zh_tw ?? '',
        labelEnUs: entry.labels?.en_us ?? '',
        sort: String(entry.sort),
        enabled: String(entry.enabled),
        version: entry.version ?? 0,
      }
    : { dictionary, code: '', labelZhCn: '', labelZhTw: '', labelEnUs: '', sort: '100', enabled: 'true' };
  return (
    <FormDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      // An entry's dictionary and code never change: an edit checks the rest (the route's own schema).
      schema={(entry ? dictionaryEntryCreateSchema.extend(dictionaryEntryUpdateSchema.shape) : dictionaryEntryCreateSchema) as typeof dictionaryEntryCreateSchema}
      defaults={defaults}
      title={t(entry ? 'dictionaries:editTitle' : 'dictionaries:addTitle')}
      description={t(dictionaryNameKey(dictionary))}
      submit={(values) => save.mutateAsync(values)}
      onDone={onSaved}
      data-testid="dictionary-entry-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="code" label={t('dictionaries:column.code')} required disabled={Boolean(entry)} description={t('dictionaries:codeHint')} />
          <TextField name="labelZhCn" label={t('dictionaries:column.labelZhCn')} required />
          <TextField name="labelZhTw" label={t('dictionaries:column.labelZhTw')} />
          <TextField name="labelEnUs" label={t('dictionaries:column.labelEnUs')} description={t('dictionaries:labelHint')} />
          <TextField name="sort" label={t('dictionaries:column.sort')} required inputMode="numeric" />
          <RadioField
            name="enabled"
            label={t('dictionaries:column.enabled')}
            required
            options={[
              { value: 'true', label: t('dictionaries:state.enabled') },
              { value: 'false', label: t('dictionaries:state.disabled') },
            ]}
          />
        </FieldGroup>
      )}
    </FormDialog>
  );
}
