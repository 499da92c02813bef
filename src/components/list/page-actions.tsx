import { useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Ban, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { canDo } from '@/domain/menus/access';
import type { ButtonAction } from '@/domain/menus/catalog';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/lib/toast';
import { permissionsAtom } from '@/lib/permissions';
import type { RowAction } from './row-actions';
import { ValidityDialog } from './validity-dialog';

/** A toolbar button shown when the role holds the page's button for `action`; it gets the selected rows. */
export interface ToolbarAction<T> {
  action: ButtonAction;
  /** Tells apart two buttons of one action (key and test id `list-<id>`); the action by default. */
  id?: string;
  label?: ReactNode;
  icon?: ReactNode;
  onClick?(selected: T[]): void;
  /** A dialog the button opens; the list keeps its open state, so a screen adds such a button in one line. */
  dialog?(props: { open: boolean; onOpenChange(open: boolean): void }): ReactNode;
  /** Needs at least one selected row (bulk actions). */
  needsSelection?: boolean;
  variant?: 'default' | 'outline' | 'destructive';
}

/** What an open action dialog gets: the rows it acts on and how to close it (after success, `done` refetches). */
export interface ActionDialogProps<T> {
  rows: T[];
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Call after the dialog's own write succeeded: refreshes the list (the dialog closes itself). */
  done(): void;
}

/**
 * One action of a page (docs/adding-a-screen.md#actions): the catalogue button gives its label and the permission
 * that shows it; it either runs (after a confirmation when `confirm` says so) or opens its own `dialog` (a
 * `FormDialog`, a `ValidityDialog`…).
 */
export interface PageAction<T> {
  /** Catalogue button: its label (`menus:button.<action>`) and, on the page, the permission without which it is hidden. */
  button: ButtonAction;
  /** Where it shows: a row's buttons, the toolbar (on the selected rows, or on none), or both; 'row' by default. */
  where?: 'row' | 'toolbar' | 'both';
  /** Another text than the catalogue button's. */
  label?: ReactNode;
  /** The toolbar button's text when it differs from the row's (e.g. "transfer the selected"). */
  toolbarLabel?: ReactNode;
  icon?: ReactNode;
  /** Red, and its confirmation is red. */
  destructive?: boolean;
  /** The toolbar button's look ('outline' by default). */
  variant?: ToolbarAction<T>['variant'];
  /** Hidden for some rows (e.g. "restore" on a valid row). */
  hidden?(row: T): boolean;
  /** Shown but not pressable for some rows; `disabledHint` says why (a tooltip). */
  disabled?(row: T): boolean;
  disabledHint?(row: T): ReactNode;
  /** Toolbar: needs selected rows (true when it also shows on rows); `rows` keeps the selected rows it applies to. */
  needsSelection?: boolean;
  rows?(selected: T[]): T[];
  /** Asks first with this text; the confirm button bears the action's label. */
  confirm?(rows: T[]): { title: ReactNode; description?: ReactNode };
  /** The write (a mutation's `mutateAsync`); a refusal keeps the confirmation open (the query client shows the message). */
  run?(rows: T[]): Promise<unknown> | unknown;
  /** Toast after `run` succeeds: a message, a function of its answer, or false. The operation / delete message by default. */
  success?: string | ((result: unknown, rows: T[]) => string) | false;
  /** A dialog the action opens instead of running (a form, a confirmation with a reason). */
  dialog?(props: ActionDialogProps<T>): ReactNode;
  /** Test id and React key of the row button; `row-<button>` by default (the toolbar's is `list-<name>`). */
  testId?: string;
  className?: string;
}

/** A page's actions by name; the name is the toolbar button's id (`list-<name>`). */
export type PageActions<T> = Record<string, PageAction<T>>;

interface Open<T> {
  name: string;
  rows: T[];
}

export interface UsedPageActions<T> {
  /** The row buttons, for `rowActionsColumn` (ListScreen adds that column itself when given `actions`). */
  rowActions: RowAction<T>[];
  /** The map's name of each row button, in `rowActions`' order (ListScreen's `rowButtons` place them by name). */
  rowNames: string[];
  /** The toolbar buttons, for `ListScreen`'s `toolbar` (test id `list-<name>`). */
  toolbar: ToolbarAction<T>[];
  /** The open confirmation or dialog: render it once beside the list. */
  dialog: ReactNode;
}

/**
 * Turns a page's actions map into row buttons, toolbar buttons and the one dialog open at a time: hidden without the
 * catalogue button's permission, confirmation when declared, toast on success, then `refresh` (the list's refetch).
 * The declarations may be written inline: the row buttons read the latest ones, so columns need not change with them.
 */
export function usePageActions<T>(pageKey: string, actions: PageActions<T> | undefined, refresh?: () => unknown): UsedPageActions<T> {
  const { t } = useTranslation(['menus', 'common']);
  const held = useAtomValue(permissionsAtom);
  const [open, setOpen] = useState<Open<T> | null>(null);
  const decl = actions ?? {};
  // The row buttons' callbacks read the latest declarations (set after each render), so the column stays the same.
  const latest = useRef(decl);
  const refreshRef = useRef(refresh);
  const labelOf = (a: PageAction<T>) => a.label ?? t(`menus:button.${a.button}`);

  const names = Object.keys(actions ?? {});
  const rowKey = names.filter((n) => (decl[n].where ?? 'row') !== 'toolbar').join('|');
  // Two row actions of one catalogue button need their own test ids.
  const shared = new Set(names.map((n) => decl[n].button).filter((b, i, all) => all.indexOf(b) !== i));
  // Stable as long as the set of row actions is: their callbacks read the latest declarations.
  const rowActions = useMemo<RowAction<T>[]>(
    () =>
      rowKey
        ? rowKey.split('|').map((name) => {
            const a = decl[name];
            const now = () => latest.current[name] ?? a;
            return {
              action: a.button,
              label: a.label,
              icon: a.icon,
              destructive: a.destructive,
              className: a.className,
              testId: a.testId ?? (shared.has(a.button) ? `row-${name}` : undefined),
              hidden: (row: T) => now().hidden?.(row) ?? false,
              disabled: (row: T) => now().disabled?.(row) ?? false,
              disabledHint: (row: T) => now().disabledHint?.(row),
              onClick: (row: T) => startRef.current(name, [row]),
            };
          })
        : [],
    // The callbacks read the latest declarations and `start` through refs; `names` is summed up in rowKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rowKey],
  );

  const rowNames = useMemo(() => (rowKey ? rowKey.split('|') : []), [rowKey]);

  function start(name: string, rows: T[]) {
    const a = latest.current[name];
    if (a.dialog || a.confirm) setOpen({ name, rows });
    else void runNow(a, rows).catch(() => undefined);
  }
  const startRef = useRef(start);
  useLayoutEffect(() => {
    latest.current = decl;
    refreshRef.current = refresh;
    startRef.current = start;
  });

  async function runNow(a: PageAction<T>, rows: T[]) {
    const result = await a.run?.(rows);
    const message =
      a.success === undefined ? t(a.button === 'delete' ? OK_MSG.deleted : OK_MSG.operation) : typeof a.success === 'function' ? a.success(result, rows) : a.success;
    if (message) toast.success(message);
    await refreshRef.current?.();
  }

  const toolbar: UsedPageActions<T>['toolbar'] = [];
  for (const name of names) {
    const a = decl[name];
    const where = a.where ?? 'row';
    if (where === 'row' || !canDo(held, pageKey, a.button)) continue;
    toolbar.push({
      id: name,
      action: a.button,
      label: a.toolbarLabel ?? labelOf(a),
      icon: a.icon,
      variant: a.variant,
      needsSelection: a.needsSelection ?? where === 'both',
      onClick: (selected) => {
        const rows = a.rows ? a.rows(selected) : selected;
        // A bulk action on selected rows none of which it applies to has nothing to do.
        if ((a.needsSelection ?? where === 'both') && rows.length === 0) return;
        start(name, rows);
      },
    });
  }

  let dialog: ReactNode = null;
  const current = open ? decl[open.name] : undefined;
  if (open && current) {
    const close = (next: boolean) => (next ? undefined : setOpen(null));
    if (current.dialog) {
      dialog = current.dialog({ rows: open.rows, open: true, onOpenChange: close, done: () => void refresh?.() });
    } else if (current.confirm) {
      const text = current.confirm(open.rows);
      dialog = (
        <ConfirmDialog
          open
          onOpenChange={close}
          title={text.title}
          description={text.description}
          confirmText={labelOf(current)}
          destructive={current.destructive ?? current.button === 'delete'}
          onConfirm={() => runNow(current, open.rows)}
        />
      );
    }
  }
  return { rowActions, rowNames, toolbar, dialog };
}

export interface ValidityOptions<T> {
  /** Whether a row is invalid now: it shows "restore" (valid) instead of "set invalid". */
  isInvalid(row: T): boolean;
  /** The write for the rows: `reason` only when setting invalid with a reason box. */
  run(rows: T[], invalid: boolean, reason: string | undefined): Promise<unknown>;
  /** The confirmation's title and text for the rows. */
  title(rows: T[], invalid: boolean): ReactNode;
  description?(rows: T[], invalid: boolean): ReactNode;
  /** The confirm button's text; "OK" by default. */
  confirmText?(invalid: boolean): string;
  /** The reason box when setting invalid (its rule is the server's: `checkReason` reads the domain schema). */
  reason?: { id: string; label: string; placeholder?: string; max: number; required?: boolean; checkReason?(reason: string): string | null };
  /** Toast after the write, from its answer: the operation message by default. */
  success?(result: unknown, invalid: boolean): string;
  /** Labels other than the catalogue's "作废" / "恢复有效". */
  labels?: { invalid?: ReactNode; valid?: ReactNode };
  /** Where the pair shows: on rows and on the selected rows ('both', the default) or only on rows. */
  where?: 'row' | 'both';
}

/**
 * The set-invalid / valid-again pair (作废 / 恢复有效) as two page actions: on a row, the one that fits its state; in
 * the toolbar, each on the selected rows it fits. Both open the validity confirmation (with a reason box when declared)
 * and toast the answer.  `actions={{ ...validityActions({ isInvalid, run, title, reason }), export: … }}`
 */
export function validityActions<T>(o: ValidityOptions<T>): { invalid: PageAction<T>; valid: PageAction<T> } {
  const one = (invalid: boolean): PageAction<T> => ({
    button: invalid ? 'invalid' : 'valid',
    where: o.where ?? 'both',
    label: invalid ? o.labels?.invalid : o.labels?.valid,
    icon: invalid ? <Ban aria-hidden /> : <RotateCcw aria-hidden />,
    destructive: invalid,
    hidden: (row) => o.isInvalid(row) === invalid,
    rows: (selected) => selected.filter((r) => o.isInvalid(r) !== invalid),
    dialog: ({ rows, onOpenChange, done }) => <ValidityConfirm options={o} rows={rows} invalid={invalid} onOpenChange={onOpenChange} done={done} />,
  });
  return { invalid: one(true), valid: one(false) };
}

function ValidityConfirm<T>({ options: o, rows, invalid, onOpenChange, done }: { options: ValidityOptions<T>; rows: T[]; invalid: boolean; onOpenChange(open: boolean): void; done(): void }) {
  const { t } = useTranslation(['menus', 'common']);
  // One request per opening: the reason starts empty.
  const [request] = useState(() => ({ rows, invalid }));
  return (
    <ValidityDialog
      request={request}
      onClose={() => onOpenChange(false)}
      title={o.title(rows, invalid)}
      description={o.description?.(rows, invalid)}
      confirmText={o.confirmText?.(invalid)}
      reason={o.reason}
      onConfirm={async (reason) => {
        const result = await o.run(rows, invalid, reason);
        toast.success(o.success ? o.success(result, invalid) : t(OK_MSG.operation));
        done();
      }}
    />
  );
}
