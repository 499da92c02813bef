import { useMemo, useState } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { ContestRow, LeaderboardClassRow, LeaderboardStudentRow, ParticipationDay } from '@/domain/contests/contests';
import type { Family } from '@/domain/menus/access';
import { Chart } from '@/components/chart/chart';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { FilterSelect } from '@/components/search-form/search-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { ChartOption } from '@/lib/echarts';
import { useActivityFormat } from '../../components/activities/format';
import { contestResource, exportLeaderboard, useLeaderboard, useParticipation } from './api';
import { ContestEntries } from './contest-entries';
import { ContestStatusBadge } from './contest-screens';

const studentCol = createDataTableColumnHelper<LeaderboardStudentRow>();
const classCol = createDataTableColumnHelper<LeaderboardClassRow>();

function RankCell({ rank }: { rank: number }) {
  return rank <= 3 ? <Badge variant={rank === 1 ? 'warning' : 'secondary'}>{rank}</Badge> : <span className="tabular-nums">{rank}</span>;
}

function ParticipationChart({ days }: { days: ParticipationDay[] }) {
  const { t } = useTranslation('contests');
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { type: 'bar', name: t('board.entries'), data: days.map((d) => d.entries) },
        { type: 'line', name: t('board.students'), data: days.map((d) => d.students), smooth: true },
      ],
    }),
    [days, t],
  );
  return <Chart option={option} height={260} aria-label={t('board.chartLabel')} />;
}

/**
 * dataRank/:id (and dataChallenge/:id; docs/product-rules.md#contests): the live leaderboard of one item by student or
 * by class (one request per view, refreshed while the contest runs), participation per day, export; the entries
 * behind it with invalid / restore.
 */
export function ContestDataScreen({ family }: { family: Family }) {
  const { id = '' } = useParams();
  const query = contestResource(family).useGet(id);
  return (
    <QueryState query={query} data={query.data}>
      {(c) => <ContestData family={family} contest={c} />}
    </QueryState>
  );
}

function ContestData({ family, contest }: { family: Family; contest: ContestRow }) {
  const { t } = useTranslation('contests');
  const fmt = useActivityFormat();
  const [by, setBy] = useState<'student' | 'class'>('student');
  const [item, setItem] = useState<string>(contest.items[0]);
  const [exporting, setExporting] = useState(false);
  const live = contest.status === 'running';
  const students = useLeaderboard<LeaderboardStudentRow>(family, contest.id, 'student', item, live && by === 'student');
  const classes = useLeaderboard<LeaderboardClassRow>(family, contest.id, 'class', item, live && by === 'class');
  const days = useParticipation(family, contest.id, live);
  const challenge = contest.type === 'challenge';
  const scoreHeader = t('board.scoreHeader', { rule: t(`rule.${contest.rule}`), unit: contest.rule === 'count' ? t('board.sessionsUnit') : fmt.unit(item) });

  const studentColumns = useMemo(
    () =>
      studentCol.columns([
        studentCol.accessor('rank', { header: t('board.rank'), meta: { width: 72 }, cell: ({ getValue }) => <RankCell rank={getValue()} /> }),
        studentCol.accessor('name', {
          header: t('board.name'),
          cell: ({ row }) => (
            <span className="flex flex-col leading-tight">
              <span className="font-medium">{row.original.name}</span>
              <span className="text-xs text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        studentCol.accessor('className', { header: t('board.className') }),
        studentCol.accessor('score', { header: scoreHeader, meta: { align: 'right' }, cell: ({ getValue }) => <span className="font-medium tabular-nums">{fmt.number(getValue())}</span> }),
        studentCol.accessor('sessions', { header: t('board.sessions'), meta: { align: 'right' } }),
        ...(challenge
          ? [
              studentCol.accessor('levels', { header: t('board.levels'), meta: { align: 'right' } }),
              studentCol.accessor('passed', {
                header: t('board.passed'),
                cell: ({ getValue }) => <Badge variant={getValue() ? 'success' : 'secondary'}>{t(getValue() ? 'board.yes' : 'board.no')}</Badge>,
              }),
            ]
          : []),
        studentCol.accessor('lastAt', { header: t('board.lastAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{fmt.dateTime(getValue())}</span> }),
      ]),
    [t, fmt, scoreHeader, challenge],
  );
  const classColumns = useMemo(
    () =>
      classCol.columns([
        classCol.accessor('rank', { header: t('board.rank'), meta: { width: 72 }, cell: ({ getValue }) => <RankCell rank={getValue()} /> }),
        classCol.accessor('className', { header: t('board.className'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        classCol.accessor('participants', { header: t('board.participants'), meta: { align: 'right' } }),
        classCol.accessor('score', { header: t('board.meanHeader', { score: scoreHeader }), meta: { align: 'right' }, cell: ({ getValue }) => <span className="font-medium tabular-nums">{fmt.number(getValue())}</span> }),
        classCol.accessor('sessions', { header: t('board.sessions'), meta: { align: 'right' } }),
        ...(challenge ? [classCol.accessor('passed', { header: t('board.passedCount'), meta: { align: 'right' } })] : []),
      ]),
    [t, fmt, scoreHeader, challenge],
  );

  const board = by === 'student' ? students.data : classes.data;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="contest-data">
      <PageHeader
        title={`${contest.name} · ${t('board.title')}`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <ContestStatusBadge status={contest.status} />
            <span className="tabular-nums">{`${contest.startDate} ~ ${contest.endDate}`}</span>
            {live ? <span>{t('board.live')}</span> : null}
          </span>
        }
        back
        actions={
          <Button
            variant="outline"
            loading={exporting}
            onClick={() => {
              setExporting(true);
              void exportLeaderboard(family, contest.id, item).finally(() => setExporting(false));
            }}
            data-testid="board-export"
          >
            <Download aria-hidden />
            {t('board.export')}
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('board.participation')}</CardTitle>
        </CardHeader>
        <CardContent>{days.data ? <ParticipationChart days={days.data} /> : <div className="h-[260px]" />}</CardContent>
      </Card>
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <Tabs value={by} onValueChange={(v) => setBy(v as 'student' | 'class')} className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <div className="flex flex-wrap items-end justify-between gap-3">
              <TabsList>
                <TabsTrigger value="student" data-testid="board-student">
                  {t('board.byStudent')}
                </TabsTrigger>
                <TabsTrigger value="class" data-testid="board-class">
                  {t('board.byClass')}
                </TabsTrigger>
              </TabsList>
              {contest.items.length > 1 ? (
                <FilterSelect
                  label={t('board.item')}
                  className="w-44"
                  value={item}
                  onChange={(v) => setItem(v ?? contest.items[0])}
                  options={contest.items.map((k) => ({ value: k, label: fmt.item(k) }))}
                />
              ) : null}
            </div>
            <TabsContent value="student" className="grid gap-2">
              <DataTable aria-label={t('board.byStudent')} columns={studentColumns} data={students.data?.rows} rowKey="studentId" loading={students.isFetching && !students.data} phone={{ mode: 'scroll' }} />
            </TabsContent>
            <TabsContent value="class" className="grid gap-2">
              <DataTable aria-label={t('board.byClass')} columns={classColumns} data={classes.data?.rows} rowKey="classId" loading={classes.isFetching && !classes.data} phone={{ mode: 'scroll' }} />
            </TabsContent>
          </Tabs>
          {board && board.total > board.rows.length ? (
            <p className="text-sm text-muted-foreground">{t('board.more', { shown: board.rows.length, total: board.total })}</p>
          ) : null}
        </CardContent>
      </Card>
      <ContestEntries family={family} contest={contest} />
    </div>
  );
}
