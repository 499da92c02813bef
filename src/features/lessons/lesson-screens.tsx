import { useMemo, useState } from 'react';
import { Eye } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { lessonListQuery, type LessonDetail, type LessonItemResult, type LessonRow, type LessonType } from '@/domain/lessons/lessons';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { exportLessons, lessonKey, lessonsOf, type LessonFamily } from './api';
import { useDateTime } from '@/lib/date-time';
import { useListFormat } from '@/lib/list-format';

type Filters = { keyword?: string };
const col = createDataTableColumnHelper<LessonRow>();

/** Item names as a list in the reader's language. */
function useItemList() {
  const { t } = useTranslation('lessons');
  const list = useListFormat();
  return (items: readonly string[]) => list(items.map((i) => t(`activities:item.${i}`)));
}

/** class/practise, class/test, class/match: lessons recorded by devices, newest first (docs/product-rules.md#lessons). */
export function LessonListScreen({ family, type }: { family: LessonFamily; type: LessonType }) {
  const { t } = useTranslation('lessons');
  const key = lessonKey(family, type);
  const api = lessonsOf(family, type);
  const state = useListState<Filters>(['keyword']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const dateTime = useDateTime();
  const itemList = useItemList();
  const [open, setOpen] = useState<LessonRow | null>(null);

  const filters: FilterDef<Filters>[] = [{ name: 'keyword', type: 'text', label: t('keyword'), placeholder: t('keywordPlaceholder') }];
  const columns = useMemo(
    () =>
      col.columns([
        ...(family === 'admin' ? [col.accessor('orgName', { header: t('school') })] : []),
        col.accessor('className', { header: t('className'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('teacherName', { header: t('teacher'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('venueName', { header: t('venue'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('items', { header: t('items'), cell: ({ getValue }) => itemList(getValue()) }),
        col.accessor('startedAt', { header: t('startedAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{dateTime(getValue())}</span> }),
        col.accessor('endedAt', {
          header: t('endedAt'),
          cell: ({ getValue }) => {
            const v = getValue();
            return v ? <span className="whitespace-nowrap tabular-nums">{dateTime(v)}</span> : <Badge variant="success">{t('notEnded')}</Badge>;
          },
        }),
        col.accessor('studentCount', { header: t('studentCount'), meta: { align: 'right' } }),
        col.accessor('recordCount', { header: t('recordCount'), meta: { align: 'right' } }),
        rowActionsColumn<LessonRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => setOpen(r), testId: 'lesson-detail' },
            ...(family === 'k12'
              ? [deleteAction<LessonRow>((r) => ({ title: t('deleteTitle', { className: r.className }), description: t('deleteText') }), (r) => remove.mutateAsync(r.id))]
              : []),
          ],
        }),
      ]),
    [t, key, family, dateTime, itemList, remove],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={lessonListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onExport={(f) => exportLessons(family, type, f, t(`types.${type}`))}
        exportLayout="list"
        data-testid="lesson-list"
      />
      <LessonDetailDialog family={family} type={type} row={open} onClose={() => setOpen(null)} />
    </>
  );
}

/** A lesson's values: per item each student's best value, attempts and rank, the class average; a match's teams and winner. */
function LessonDetailDialog({ family, type, row, onClose }: { family: LessonFamily; type: LessonType; row: LessonRow | null; onClose(): void }) {
  const { t } = useTranslation('lessons');
  const detail = lessonsOf(family, type).useGet(row?.id);
  const itemList = useItemList();
  return (
    <Dialog open={row !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="sm:max-w-4xl" data-testid="lesson-detail-dialog">
        <DialogHeader>
          <DialogTitle>{row ? t('detailTitle', { type: t(`types.${type}`), className: row.className }) : null}</DialogTitle>
          <DialogDescription>{row ? [row.teacherName, row.venueName, itemList(row.items)].filter(Boolean).join(' · ') : null}</DialogDescription>
        </DialogHeader>
        <QueryState query={detail} data={detail.data}>
          {(d: LessonDetail) => (
            <div className="grid gap-6">
              {d.winner !== null && <p className="text-base font-semibold text-success">{t('winner', { team: d.winner })}</p>}
              {d.items.map((item) => (
                <ItemResult key={item.item} item={item} />
              ))}
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}

function ItemResult({ item }: { item: LessonItemResult }) {
  const { t } = useTranslation('lessons');
  const unit = t(`activities:unit.${item.unit}`);
  return (
    <section className="grid gap-2" aria-labelledby={`lesson-item-${item.item}`}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`lesson-item-${item.item}`} className="font-semibold">
          {t(`activities:item.${item.item}`)}
        </h3>
        <span className="text-sm text-muted-foreground">
          {t('average')}: {item.average ?? '—'} {item.average !== null ? unit : ''}
          {item.teams && <> · {item.winner ? t('itemWinner', { team: item.winner }) : t('draw')}</>}
        </span>
      </header>
      {item.teams && (
        <table className="w-full text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-1 font-medium">{t('team')}</th>
              <th className="py-1 text-right font-medium">{t('members')}</th>
              <th className="py-1 text-right font-medium">{t('teamAverage')}</th>
            </tr>
          </thead>
          <tbody>
            {item.teams.map((team) => (
              <tr key={team.name} className="border-t">
                <td className="py-1">{team.name}</td>
                <td className="py-1 text-right tabular-nums">{team.members}</td>
                <td className="py-1 text-right tabular-nums">{team.average ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {item.students.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('noValues')}</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th className="py-1 font-medium">{t('rank')}</th>
              <th className="py-1 font-medium">{t('student')}</th>
              {item.teams && <th className="py-1 font-medium">{t('team')}</th>}
              <th className="py-1 text-right font-medium">
                {t('best')} ({unit})
              </th>
              <th className="py-1 text-right font-medium">{t('attempts')}</th>
            </tr>
          </thead>
          <tbody>
            {item.students.map((s) => (
              <tr key={s.studentId} className="border-t">
                <td className="py-1 tabular-nums">{s.rank}</td>
                <td className="py-1">{s.name}</td>
                {item.teams && <td className="py-1">{s.team ?? '—'}</td>}
                <td className="py-1 text-right tabular-nums">{s.best}</td>
                <td className="py-1 text-right tabular-nums">{s.attempts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
