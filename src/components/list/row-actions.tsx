import { useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Ellipsis, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { canDo } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { createDataTableColumnHelper, type DataTableCellContext, type RowData } from '@/components/data-table/data-table';
import { useDataTableLayout } from '@/components/data-table/data-table-phone';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { toast } from '@/lib/toast';
import { Tooltip } from '@/components/ui/tooltip';
import { permissionsAtom } from '@/lib/permissions';
import { cn } from '@/lib/cn';

/** One row action: shown when the role holds the page's button for `action` (and `hidden` says no). */
export interface RowAction<T> {
  /** Catalogue button action; its permission on the page decides whether the action shows. */
  action: ButtonAction;
  /** Defaults to the catalogue button's label (`menus:button.<action>`). */
  label?: ReactNode;
  icon?: ReactNode;
  onClick(row: T): void | Promise<void>;
  /** Hide for some rows (e.g. no edit once ended). */
  hidden?(row: T): boolean;
  disabled?(row: T): boolean;
  /** Why a disabled action is disabled, as its tooltip. */
  disabledHint?(row: T): ReactNode;
  /**
   * Dangerous actions ask first: the dialog's title and text for the row. The dialog's button runs `onClick`
   * (a promise keeps it busy, a rejection keeps it open), then toasts `done` (the delete/operation message by default).
   */
  confirm?(row: T): { title: ReactNode; description?: ReactNode };
  /** Toast after a confirmed action succeeds; false for none. */
  done?: string | false;
  destructive?: boolean;
  /** Extra classes of the button (e.g. a warning colour). */
  className?: string;
  /** Also the React key: set it when two actions of a row share a catalogue action. */
  testId?: string;
}

/** The usual edit action: a pencil that opens the row's edit screen. */
export function editAction<T>(onClick: (row: T) => void): RowAction<T> {
  return { action: 'edit', icon: <Pencil aria-hidden />, onClick };
}

/** The usual delete action: asks with the row's `confirm` text, then deletes (and toasts the delete message). */
export function deleteAction<T>(confirm: NonNullable<RowAction<T>['confirm']>, onClick: (row: T) => Promise<unknown>): RowAction<T> {
  return { action: 'delete', icon: <Trash2 aria-hidden />, destructive: true, confirm, onClick: async (row) => void (await onClick(row)) };
}

interface Pending<T> {
  row: T;
  action: RowAction<T>;
}

/**
 * Most buttons a row shows before the rest go in a "more" menu: four or more actions (e.g. detail, data, edit, end,
 * delete) pushed the other columns under the pinned actions column at 1440 px in English.
 */
export const MAX_INLINE_ACTIONS = 3;

/**
 * The buttons of one row, with the confirm dialog of the dangerous ones. A row that has more shown actions than
 * `maxInline` keeps the first `maxInline - 1` as buttons and puts the rest in a "more" menu (keyboard: Enter or
 * Space opens it, arrows move, Esc closes), so a list with many actions keeps a narrow actions column.
 */
export function RowActions<T>({
  row,
  pageKey,
  actions,
  maxInline = MAX_INLINE_ACTIONS,
}: {
  row: T;
  pageKey: string;
  actions: readonly RowAction<T>[];
  maxInline?: number;
}) {
  const { t } = useTranslation(['menus', 'common', 'components']);
  const held = useAtomValue(permissionsAtom);
  const [pending, setPending] = useState<Pending<T> | null>(null);
  // On a phone's card (data-table-cards.tsx) every action is in the one menu: buttons would crowd out the row's data.
  const inCard = useDataTableLayout() === 'cards';
  const shown = actions.filter((a) => canDo(held, pageKey, a.action) && !a.hidden?.(row));
  if (shown.length === 0) return null;
  const confirmText = pending?.action.confirm?.(pending.row);
  const limit = inCard ? 0 : maxInline;
  const overflow = shown.length > limit;
  const inline = overflow ? shown.slice(0, Math.max(0, limit - 1)) : shown;
  const more = overflow ? shown.slice(inline.length) : [];
  const run = (a: RowAction<T>) => (a.confirm ? setPending({ row, action: a }) : void a.onClick(row));
  return (
    <div className="flex justify-end gap-1" data-slot="row-actions">
      {inline.map((a) => {
        const disabled = a.disabled?.(row) ?? false;
        const button = (
          <Button
            key={a.testId ?? a.action}
            variant="link"
            size="sm"
            className={cn('h-7 px-1.5', a.destructive && 'text-destructive', a.className)}
            disabled={disabled}
            data-testid={a.testId ?? `row-${a.action}`}
            onClick={() => run(a)}
          >
            {a.icon}
            {a.label ?? t(`menus:button.${a.action}`)}
          </Button>
        );
        const hint = disabled ? a.disabledHint?.(row) : undefined;
        // A disabled button gets no pointer events: the tooltip sits on a wrapper.
        return hint ? (
          <Tooltip key={a.testId ?? a.action} content={hint}>
            <span>{button}</span>
          </Tooltip>
        ) : (
          button
        );
      })}
      {more.length ? (
        // Not modal: a dialog an item opens (a confirmation) must get the focus and the pointer once the menu closes.
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            {inCard ? (
              <Button variant="ghost" size="icon" className="size-11" aria-label={t('components:list.actions')} data-testid="row-more">
                <Ellipsis aria-hidden className="size-5" />
              </Button>
            ) : (
              <Button variant="link" size="sm" className="h-7 px-1.5" data-testid="row-more">
                <Ellipsis aria-hidden />
                {t('components:list.more')}
              </Button>
            )}
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" data-testid="row-more-menu">
            {more.map((a) => (
              <DropdownMenuItem
                key={a.testId ?? a.action}
                variant={a.destructive ? 'destructive' : 'default'}
                disabled={a.disabled?.(row) ?? false}
                className={a.className}
                data-testid={a.testId ?? `row-${a.action}`}
                onSelect={() => run(a)}
              >
                {a.icon}
                {a.label ?? t(`menus:button.${a.action}`)}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
      {pending && confirmText ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setPending(null)}
          title={confirmText.title}
          description={confirmText.description}
          confirmText={pending.action.label ?? t(`menus:button.${pending.action.action}`)}
          destructive={pending.action.destructive ?? true}
          onConfirm={async () => {
            await pending.action.onClick(pending.row);
            const done = pending.action.done ?? (pending.action.action === 'delete' ? OK_MSG.deleted : OK_MSG.operation);
            if (done) toast.success(t(done));
          }}
        />
      ) : null}
    </div>
  );
}

/**
 * The action column of a list (a column factory): header '操作', pinned to the right edge, the row's permitted buttons
 * (past `maxInline`, the rest in a "more" menu).
 *   rowActionsColumn<ClassDetail>({ pageKey: 'k12.org.class', header: t('components:list.actions'), actions: [...] })
 * Keep `actions` stable (useMemo) like the other columns.
 */
export function rowActionsColumn<T extends RowData>({
  pageKey,
  header,
  actions,
  width,
  maxInline,
}: {
  pageKey: string;
  header: ReactNode;
  actions: readonly RowAction<T>[];
  width?: number;
  /** More shown actions than this (default MAX_INLINE_ACTIONS): the first `maxInline - 1` stay buttons, the rest go in a "more" menu. */
  maxInline?: number;
}) {
  const col = createDataTableColumnHelper<T>();
  const cellProps: RowActionsCellProps<T> = { pageKey, actions, maxInline };
  return col.display({
    id: 'actions',
    header: () => header,
    meta: { align: 'right', className: 'whitespace-nowrap', pin: 'right', width, cellProps, foldsOnCards: true },
    // One component for every list and every remake of the columns (a screen remakes them when a mutation's state
    // changes): a row's open confirm dialog stays open through it.
    cell: RowActionsCell as (context: DataTableCellContext<T>) => ReactNode,
  });
}

type RowActionsCellProps<T> = Pick<Parameters<typeof RowActions<T>>[0], 'pageKey' | 'actions' | 'maxInline'>;

function RowActionsCell({ row, column }: DataTableCellContext<RowData>) {
  const props = column.columnDef.meta?.cellProps as RowActionsCellProps<RowData>;
  return <RowActions row={row.original} {...props} />;
}
