import { useState, type ReactNode } from 'react';
import { Ban, Check, Pencil, RotateCcw, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ResultDetail } from '@/domain/physique-results/types';
import type { ResultKey } from '@/domain/physique/national-template';
import { parseRaw } from '@/domain/physique/parse';
import type { ItemKey } from '@/domain/physique/standard';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { useEditRawMutation } from '../api/edit-raw';
import { useResultQuery } from '../api/get-result';
import { useSetResultsInvalidMutation } from '../api/set-results-invalid';
import type { Family } from '@/domain/menus/access';
import { showRaw, showScore } from '../format';
import { InvalidConfirm } from './invalid-confirm';
import { levelTone } from './item-cell';
import { useDateTime } from '@/lib/date-time';

type Row = { field: ResultKey; item: ItemKey } | { field: null; item: 'bmi' };

/** Rows of a result: the plan's items; BMI as height and weight (edited) followed by BMI itself (computed). */
function rowsOf(detail: ResultDetail): Row[] {
  return detail.planItems.flatMap((item): Row[] =>
    item === 'bmi' ? [{ field: 'heightCm', item }, { field: 'weightKg', item }, { field: null, item: 'bmi' }] : [{ field: item, item }],
  );
}

function rawOf(detail: ResultDetail, field: ResultKey): number | null {
  if (field === 'heightCm') return detail.heightCm;
  if (field === 'weightKg') return detail.weightKg;
  return detail.items[field]?.raw ?? null;
}

export interface ResultEditorProps {
  family: Family;
  id: string;
  /** Raw values may be edited (testResult report permission). */
  editable: boolean;
  canInvalid: boolean;
  canValid: boolean;
}

/**
 * One result (testResult/editUpReport, docs/product-rules.md#physique-results: results screen): every item's raw value, score and level; a raw value edited in
 * place, checked with the engine's parser before it is sent and rescored by the server on save; invalid/restore;
 * who changed what and when.
 */
export function ResultEditor({ family, id, editable, canInvalid, canValid }: ResultEditorProps) {
  const { t } = useTranslation(['physiqueResultsUi', 'physique', 'physiqueResults']);
  const dateTime = useDateTime('medium');
  const query = useResultQuery(family, id);
  const edit = useEditRawMutation(family, id);
  const toggle = useSetResultsInvalidMutation(family, 'testResult');
  const [editing, setEditing] = useState<ResultKey | null>(null);
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [changed, setChanged] = useState<ResultKey | null>(null);
  const detail = query.data;

  if (!detail) return <Skeleton className="h-80 w-full" />;

  const fieldName = (field: ResultKey) => (field === 'heightCm' || field === 'weightKg' ? t(`physique:field.${field}`) : t(`physique:item.${field}`));
  const start = (field: ResultKey) => {
    setEditing(field);
    setError(null);
    const value = showRaw(field, rawOf(detail, field));
    setInput(value === '—' ? '' : value);
  };
  const save = async (field: ResultKey) => {
    const text = input.trim();
    // Empty clears the value; anything else must parse as the engine parses it (the server checks again).
    if (text !== '') {
      const parsed = parseRaw(field, text);
      if (!parsed.ok) {
        setError(t(parsed.error, parsed.params ?? {}));
        return;
      }
    }
    const before = detail.total;
    const next = await edit.mutateAsync({ field, value: text === '' ? null : text }).catch(() => null);
    if (!next) return;
    setEditing(null);
    setChanged(field);
    toast.success(t('editor.saved', { before: showScore(before), after: showScore(next.total) }));
  };

  const row = ({ field, item }: Row): ReactNode => {
    const result = detail.items[item];
    // Height and weight are measured values: BMI's own row carries its score and level.
    const scored = field !== 'heightCm' && field !== 'weightKg';
    const level = scored && result?.level ? t(item === 'bmi' ? `physique:bmiLevel.${result.level}` : `physique:level.${result.level}`) : '';
    const missing = scored && detail.missing.includes(item);
    const unit = field ?? 'bmi';
    const bmiShown = showRaw('bmi', result?.raw);
    return (
      <tr key={unit} className={cn('border-b last:border-b-0', changed !== null && changed === field && 'bg-success/10')} data-field={unit}>
        <th scope="row" className={cn('py-2 pr-3 text-left font-medium whitespace-nowrap', field === null && 'pl-4 font-normal text-muted-foreground')}>
          {field ? fieldName(field) : t('physique:item.bmi')}
          <span className="ml-1 text-xs font-normal text-muted-foreground">{t(`physique:unit.${unit}`)}</span>
        </th>
        <td className="py-2 pr-3">
          {field === null ? (
            <span className="tabular-nums">{bmiShown}</span>
          ) : editing === field ? (
            <form
              className="flex items-start gap-1.5"
              onSubmit={(e) => {
                e.preventDefault();
                void save(field);
              }}
            >
              <div className="grid gap-1">
                <Input
                  autoFocus
                  className="h-8 w-32"
                  value={input}
                  aria-label={fieldName(field)}
                  aria-invalid={error ? true : undefined}
                  onChange={(e) => {
                    setInput(e.target.value);
                    setError(null);
                  }}
                  data-testid="raw-input"
                />
                {error ? (
                  <p role="alert" className="max-w-64 text-xs text-destructive" data-testid="raw-error">
                    {error}
                  </p>
                ) : null}
              </div>
              <Button type="submit" size="icon" className="size-8" loading={edit.isPending} aria-label={t('editor.save')} data-testid="raw-save">
                <Check aria-hidden />
              </Button>
              <Button type="button" size="icon" variant="ghost" className="size-8" aria-label={t('editor.cancel')} onClick={() => setEditing(null)}>
                <X aria-hidden />
              </Button>
            </form>
          ) : (
            <span className="flex items-center gap-2">
              <span className="font-medium tabular-nums" data-testid="raw-value">
                {showRaw(field, rawOf(detail, field))}
              </span>
              {editable ? (
                <Button variant="ghost" size="icon" className="size-7" aria-label={t('editor.editField', { field: fieldName(field) })} onClick={() => start(field)} data-testid="raw-edit">
                  <Pencil aria-hidden />
                </Button>
              ) : null}
            </span>
          )}
        </td>
        <td className="py-2 pr-3 text-right tabular-nums" data-testid="item-score">
          {scored ? showScore(result?.score) : ''}
        </td>
        <td className={cn('py-2 pr-3', levelTone(result?.level))}>{missing ? <Badge variant="outline">{t('editor.missing')}</Badge> : level}</td>
        <td className="py-2 text-right tabular-nums text-success">{scored && result?.bonus ? `+${result.bonus}` : ''}</td>
      </tr>
    );
  };

  return (
    <div className="grid gap-5" data-testid="result-editor">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <div className="flex items-center gap-2 text-lg font-semibold">
            {detail.name}
            {detail.invalid ? <Badge variant="destructive">{t('validity.invalid')}</Badge> : null}
          </div>
          <div className="text-sm text-muted-foreground">
            {t('editor.identity', {
              regNo: detail.regNo,
              className: detail.className,
              gender: t(`physique:gender.${detail.gender}`),
              plan: detail.planName,
              date: detail.testedOn ?? '—',
            })}
          </div>
        </div>
        {detail.invalid && canValid ? (
          <Button variant="outline" onClick={() => setConfirming(true)} data-testid="editor-restore">
            <RotateCcw aria-hidden />
            {t('action.valid')}
          </Button>
        ) : null}
        {!detail.invalid && canInvalid ? (
          <Button variant="outline" className="text-destructive" onClick={() => setConfirming(true)} data-testid="editor-invalid">
            <Ban aria-hidden />
            {t('action.invalid')}
          </Button>
        ) : null}
      </div>
      <div className="overflow-x-auto rounded-md border px-3">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b text-muted-foreground">
              <th className="py-2 pr-3 text-left font-medium">{t('editor.item')}</th>
              <th className="py-2 pr-3 text-left font-medium">{t('editor.raw')}</th>
              <th className="py-2 pr-3 text-right font-medium">{t('editor.score')}</th>
              <th className="py-2 pr-3 text-left font-medium">{t('editor.level')}</th>
              <th className="py-2 text-right font-medium">{t('column.bonus')}</th>
            </tr>
          </thead>
          <tbody>{rowsOf(detail).map(row)}</tbody>
        </table>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="editor-totals">
        {[
          [t('column.standardScore'), showScore(detail.standardScore)],
          [t('column.bonus'), showScore(detail.bonus)],
          [t('column.total'), showScore(detail.total)],
          [t('column.level'), detail.level ? t(`physique:level.${detail.level}`) : t('level.incomplete')],
        ].map(([label, value]) => (
          <div key={label} className="rounded-md border bg-muted/40 px-3 py-2">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className={cn('text-lg font-semibold tabular-nums', label === t('column.level') && levelTone(detail.level))}>{value}</dd>
          </div>
        ))}
      </dl>
      {detail.missing.length > 0 ? (
        <p className="text-sm text-warning">
          {t('physique:score.incomplete', { items: detail.missing.map((i) => t(`physique:item.${i}`)).join(t('listSeparator')) })}
        </p>
      ) : null}
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold">{t('editor.history')}</h3>
        {detail.logs.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('editor.noHistory')}</p>
        ) : (
          <ol className="grid gap-1.5 text-sm" data-testid="editor-logs">
            {detail.logs.map((log) => (
              <li key={log.id} className="flex flex-wrap gap-x-2 text-muted-foreground">
                <span className="tabular-nums">{dateTime(log.at)}</span>
                <span className="text-foreground">{log.byName ?? t('editor.system')}</span>
                <span>{t(`physiqueResults:log.${log.action}`)}</span>
                {log.field ? (
                  <span>
                    {fieldName(log.field as ResultKey)}
                    {t('editor.change', { from: log.oldValue ?? '—', to: log.newValue ?? '—' })}
                  </span>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </div>
      <InvalidConfirm
        target={confirming ? detail : null}
        onClose={() => setConfirming(false)}
        onConfirm={() => toggle.mutateAsync({ ids: [detail.id], invalid: !detail.invalid }).then(() => query.refetch())}
      />
    </div>
  );
}
