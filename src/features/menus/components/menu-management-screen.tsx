import { useMemo, useState } from 'react';
import { ArrowDown, ArrowUp, Pencil, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LOCALES } from '@/domain/constants';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { customName } from '@/domain/menus/custom-name';
import { MENU_FAMILIES, MENU_ICON_NAMES, MENU_MANAGEMENT_KEY, menuCustomSaveSchema, type MenuCustomForm, type MenuCustomRow, type MenuFamily } from '@/domain/menus/customize';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EmptyState } from '@/components/empty-state/empty-state';
import { CustomField, FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { FormScreen } from '@/components/form/form-screen';
import { menuIcon } from '@/components/layout/menu-icon';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { TreeTable, type TreeRow } from '@/components/tree/tree-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import { currentLocale, i18next } from '@/lib/i18n';
import { menuCustoms, useMenuTree, useMenuWrites } from '../api';

type Row = TreeRow<MenuCustomRow>;
const col = createDataTableColumnHelper<Row>();
const PATH = getCatalogEntry(MENU_MANAGEMENT_KEY)!.path;
const familyOf = (value: string | null): MenuFamily => (MENU_FAMILIES as readonly string[]).includes(value ?? '') ? (value as MenuFamily) : 'k12';

function nest(rows: readonly MenuCustomRow[]): Row[] {
  const byKey = new Map<string, Row & { children: Row[] }>(rows.map((r) => [r.key, { ...r, id: r.key, children: [] }]));
  const roots: Row[] = [];
  for (const r of rows) {
    const node = byKey.get(r.key)!;
    const parent = r.parent ? byKey.get(r.parent) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The name an entry shows in the current language: the operator's, else the catalogue's translation. */
function useEntryName() {
  const { t } = useTranslation('menus');
  return (r: MenuCustomRow) => customName(r.names, currentLocale()) ?? t(r.i18nKey, { defaultValue: r.name });
}

/**
 * /menuManagement (docs/product-rules.md#menu-management): each family's groups and pages with their names, order,
 * icon and visibility; `?family=` picks the tree, `?edit=<key>` opens an entry's form as a drawer over it.
 */
export function MenuManagementScreen() {
  const { t } = useTranslation(['menusUi', 'common']);
  const [params, setParams] = useSearchParams();
  const family = familyOf(params.get('family'));
  const editing = params.get('edit');
  const tree = useMenuTree(family);
  const writes = useMenuWrites();
  const nameOf = useEntryName();
  const [resetting, setResetting] = useState<MenuCustomRow | 'family' | null>(null);
  const familyName = t(`families.${family}`);
  const open = (key: string) => setParams({ family, edit: key });

  const columns = useMemo(() => {
    const rows = tree.data ?? [];
    const siblings = (r: MenuCustomRow) => rows.filter((s) => s.parent === r.parent);
    const move = async (r: MenuCustomRow, direction: 'up' | 'down') => {
      try {
        await writes.move.mutateAsync({ key: r.key, direction });
      } catch (error) {
        toast.warning(error instanceof ApiError ? error.message : String(error));
      }
    };
    return col.columns([
      col.accessor('name', { header: t('catalogueName') }),
      col.accessor('path', { header: t('path'), cell: ({ getValue }) => <span className="font-mono text-xs text-muted-foreground">{getValue()}</span> }),
      col.display({
        id: 'status',
        header: t('status'),
        cell: ({ row }) => (
          <span className="flex gap-1">
            {row.original.hidden ? <Badge variant="secondary">{t('hidden')}</Badge> : <Badge variant="outline">{t('visible')}</Badge>}
            {row.original.customised ? <Badge variant="outline">{t('customised')}</Badge> : null}
          </span>
        ),
      }),
      col.display({
        id: 'actions',
        header: t('actions'),
        meta: { align: 'right', className: 'whitespace-nowrap', pin: 'right' },
        cell: ({ row }) => {
          const r = row.original;
          const list = siblings(r);
          const at = list.findIndex((s) => s.key === r.key);
          const name = nameOf(r);
          return (
            <div className="flex justify-end gap-1">
              <Button variant="ghost" size="icon" className="size-7" aria-label={`${t('up')} ${name}`} disabled={at <= 0 || writes.move.isPending} onClick={() => void move(r, 'up')} data-testid="menu-up">
                <ArrowUp aria-hidden />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                className="size-7"
                aria-label={`${t('down')} ${name}`}
                disabled={at === list.length - 1 || writes.move.isPending}
                onClick={() => void move(r, 'down')}
                data-testid="menu-down"
              >
                <ArrowDown aria-hidden />
              </Button>
              <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => open(r.key)} data-testid="menu-edit">
                <Pencil aria-hidden />
                {t('edit')}
              </Button>
              <Button variant="link" size="sm" className="h-7 px-1.5" disabled={!r.customised} onClick={() => setResetting(r)} data-testid="menu-reset">
                <RotateCcw aria-hidden />
                {t('reset')}
              </Button>
            </div>
          );
        },
      }),
    ]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- open/nameOf follow family and language, already in deps
  }, [t, tree.data, writes.move, family]);

  const forbidden = tree.error instanceof ApiError && tree.error.status === 403;
  const title = menuLabel(t, getCatalogEntry(MENU_MANAGEMENT_KEY)!);

  return (
    <div data-testid="menu-management" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={title}
        description={t('description')}
        actions={
          forbidden ? null : (
            <Button variant="outline" onClick={() => setResetting('family')} data-testid="menu-reset-family">
              <RotateCcw aria-hidden />
              {t('resetFamily')}
            </Button>
          )
        }
      />
      {forbidden ? (
        <EmptyState title={t('forbidden')} />
      ) : (
        <>
          <Tabs value={family} onValueChange={(value) => setParams({ family: value })}>
            <TabsList>
              {MENU_FAMILIES.map((f) => (
                <TabsTrigger key={f} value={f}>
                  {t(`families.${f}`)}
                </TabsTrigger>
              ))}
            </TabsList>
            {/* The tree is the active tab's panel, so each tab's aria-controls names an element that exists. */}
            <TabsContent value={family}>
              <QueryState query={tree} data={tree.data}>
                {(rows) => (
                  <TreeTable
                    rows={nest(rows)}
                    label={{
                      header: t('name'),
                      cell: (r) => {
                        const Icon = menuIcon(r.customIcon ?? r.icon ?? undefined);
                        return (
                          <span className="flex items-center gap-2 font-medium">
                            {r.kind === 'group' ? <Icon aria-hidden className="size-4 text-muted-foreground" /> : null}
                            <span className={r.hidden ? 'text-muted-foreground line-through' : undefined}>{nameOf(r)}</span>
                          </span>
                        );
                      },
                    }}
                    columns={columns}
                    aria-label={`${title}: ${familyName}`}
                  />
                )}
              </QueryState>
            </TabsContent>
          </Tabs>
        </>
      )}
      {editing ? <MenuEntryForm key={editing} entryKey={editing} family={family} /> : null}
      <ConfirmDialog
        open={resetting !== null}
        onOpenChange={(o) => (o ? undefined : setResetting(null))}
        title={resetting === 'family' ? t('resetFamilyTitle', { family: familyName }) : resetting ? t('resetTitle', { name: nameOf(resetting) }) : ''}
        description={resetting === 'family' ? t('resetFamilyBody') : t('resetBody')}
        confirmText={t('reset')}
        onConfirm={async () => {
          try {
            if (resetting === 'family') await writes.resetFamily.mutateAsync(family);
            else if (resetting) await writes.reset.mutateAsync(resetting.key);
            toast.success(t(OK_MSG.saved));
          } catch (error) {
            toast.warning(error instanceof ApiError ? error.message : String(error));
            throw error;
          }
        }}
      />
    </div>
  );
}

/** One entry's names in the three languages, icon and visibility, as a drawer over the tree. */
function MenuEntryForm({ entryKey, family }: { entryKey: string; family: MenuFamily }) {
  const { t } = useTranslation('menusUi');
  const nameOf = useEntryName();
  const row = menuCustoms.useGet(entryKey).data;
  const defaults: MenuCustomForm = { names: {}, icon: '', visible: true };
  return (
    <FormScreen
      presentation="drawer"
      schema={menuCustomSaveSchema}
      resource={menuCustoms}
      id={entryKey}
      defaults={defaults}
      toValues={(r) => ({
        names: Object.fromEntries(LOCALES.map((l) => [l, r.names[l] ?? ''])),
        icon: r.customIcon ?? '',
        visible: !r.hidden,
        version: r.version,
      })}
      title={t('editTitle', { name: row ? nameOf(row) : '' })}
      description={t('formHint')}
      backTo={`${PATH}?family=${family}`}
      data-testid="menu-form"
    >
      {() => (
        <FieldGroup className="md:grid-cols-1">
          {LOCALES.map((l) => (
            <TextField key={l} name={`names.${l}`} label={t(`names.${l}`)} placeholder={row ? nameOfLocale(row, l) : undefined} />
          ))}
          <SelectField
            name="icon"
            label={t('icon')}
            placeholder={row?.icon ? `${t('defaultIcon')}: ${row.icon}` : t('defaultIcon')}
            options={MENU_ICON_NAMES.map((name) => ({ value: name, label: name }))}
          />
          <CustomField
            name="visible"
            label={t('showInMenu')}
            render={(field) => (
              <FormControl>
                <Switch checked={field.value !== false} onCheckedChange={(v) => field.onChange(v)} onBlur={field.onBlur} ref={field.ref} />
              </FormControl>
            )}
          />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

/** The catalogue's name of an entry in a language (when that language is loaded), as that field's placeholder. */
function nameOfLocale(row: MenuCustomRow, locale: (typeof LOCALES)[number]): string {
  return i18next.getFixedT(locale, 'menus')(row.i18nKey, { defaultValue: row.name });
}
