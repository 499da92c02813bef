import type { ReactNode } from 'react';
import { Award, Clock, Trophy } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { MeetBoardView } from '@/domain/meets/board';
import { cn } from '@/lib/cn';

/** 'HH:MM' of minutes from midnight. */
export function clockOf(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
}

function Panel({ title, icon, children, className, testId }: { title: string; icon: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section className={cn('flex min-h-0 flex-col gap-3 overflow-hidden rounded-2xl border bg-card p-6', className)} aria-label={title} data-testid={testId}>
      <h2 className="flex items-center gap-3 text-[30px] font-semibold">
        {icon}
        {title}
      </h2>
      <div className="min-h-0 flex-1">{children}</div>
    </section>
  );
}

/**
 * A meet's live board on the wall's 1920 × 1080 design canvas (docs/product-rules.md#wall-display): the four latest published heats with
 * their places, the class points, the heats coming up, and new records, highlighted where they were set and in a band below.
 */
export function MeetBoardScene({ board }: { board: MeetBoardView }) {
  const { t } = useTranslation('meets');
  const round = (r: number, no: number) => (r > 0 ? t('heat.final') : t('heat.heat', { no }));
  return (
    <div className="grid h-full grid-cols-[1fr_600px] grid-rows-[1fr_auto] gap-6" data-testid="wall-meet-board">
      <div className="grid min-h-0 grid-cols-2 grid-rows-2 gap-6">
        {board.latest.map((l) => (
          <section key={l.heatId} className="flex min-h-0 flex-col gap-2 overflow-hidden rounded-2xl border bg-card p-5" data-testid="board-result" aria-label={`${l.groupName} ${l.eventName}`}>
            <h2 className="truncate text-[30px] font-semibold">
              {l.groupName} {l.eventName} <span className="text-muted-foreground">· {round(l.round, l.no)}</span>
            </h2>
            <ol className="grid content-start gap-1 text-[24px]">
              {l.results.map((r, i) => (
                <li key={i} className={cn('flex items-center gap-4 rounded-lg px-2 leading-[36px]', r.newRecord && 'bg-warning/20')} data-new-record={r.newRecord || undefined}>
                  <span className={cn('w-10 text-center font-mono font-bold', r.place === 1 && 'text-warning')}>{r.place ?? '—'}</span>
                  <span className="min-w-0 truncate font-medium">{r.name}</span>
                  <span className="min-w-0 truncate text-muted-foreground">{r.className}</span>
                  <span className="ms-auto font-mono tabular-nums">{r.mark}</span>
                  {r.newRecord ? <span className="rounded-full bg-destructive px-3 text-[20px] font-semibold text-white">{t('score.newRecord')}</span> : null}
                </li>
              ))}
            </ol>
          </section>
        ))}
        {!board.latest.length ? (
          <p className="col-span-2 row-span-2 flex items-center justify-center rounded-2xl border bg-card text-[40px] text-muted-foreground" data-testid="board-no-results">
            {t('board.noResults')}
          </p>
        ) : null}
      </div>
      <div className="row-span-2 grid min-h-0 grid-rows-[auto_1fr] gap-6">
        <Panel title={t('points.classes')} icon={<Trophy aria-hidden className="size-8 text-warning" />} testId="board-points">
          {board.classes.length ? (
            <ol className="grid gap-1 text-[24px]">
              {board.classes.map((c) => (
                <li key={c.id} className="flex items-center gap-4 leading-[34px]">
                  <span className={cn('w-10 text-center font-mono font-bold', c.rank <= 3 && 'text-warning')}>{c.rank}</span>
                  <span className="min-w-0 truncate">{c.name}</span>
                  <span className="ms-auto font-mono font-semibold tabular-nums">{c.points}</span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-[24px] text-muted-foreground">{t('points.none')}</p>
          )}
        </Panel>
        <Panel title={t('board.upcoming')} icon={<Clock aria-hidden className="size-8 text-primary" />} testId="board-upcoming">
          <ol className="grid gap-1 text-[24px]">
            {board.upcoming.map((u) => (
              <li key={u.id} className="flex gap-4 leading-[34px]">
                <span className="w-20 font-mono tabular-nums">{u.startMin != null ? clockOf(u.startMin) : ''}</span>
                <span className="min-w-0 truncate">
                  {u.groupName} {u.eventName} · {round(u.round, u.no)}
                </span>
              </li>
            ))}
          </ol>
          {!board.upcoming.length ? <p className="text-[24px] text-muted-foreground">{t('board.noUpcoming')}</p> : null}
        </Panel>
      </div>
      <div className="flex min-w-0 items-center gap-4 overflow-hidden rounded-2xl border border-warning/60 bg-warning/10 px-6 py-3 text-[26px]" data-testid="board-records">
        <Award aria-hidden className="size-8 shrink-0 text-warning" />
        <span className="shrink-0 font-semibold text-warning">{t('board.records')}</span>
        <span className="min-w-0 truncate">
          {board.records.length ? board.records.map((r) => `${r.groupName} ${r.eventName} ${r.mark} · ${r.holder}`).join('　　') : t('board.noRecords')}
        </span>
      </div>
    </div>
  );
}
