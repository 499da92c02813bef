import type { LeaderboardQuery } from '@/domain/contests/contests';
import { ACTIVITY_ITEMS } from '@/domain/activities/items';
import type { DbOrTx } from '../../db/client';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { classLeaderboard, contestById, studentLeaderboard, type ContestReader } from './contests.service';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Most students an export lists. */
const EXPORT_MAX_STUDENTS = 100_000;

/** The leaderboards of one item as a workbook: a sheet of students (every participant) and one of classes. */
export async function exportLeaderboard(db: DbOrTx, reader: ContestReader, id: string, q: LeaderboardQuery, t: Translate) {
  const contest = await contestById(db, reader, id);
  const [byStudent, byClass] = await Promise.all([studentLeaderboard(db, reader, id, q, EXPORT_MAX_STUDENTS), classLeaderboard(db, reader, id, q)]);
  const unit = t(`activities:unit.${ACTIVITY_ITEMS.get(byStudent.item)?.unit ?? 'count'}`);
  const scoreHeader = t('contests:board.scoreHeader', { rule: t(`contests:rule.${contest.rule}`), unit: contest.rule === 'count' ? t('contests:board.sessionsUnit') : unit });
  const h = (k: string) => t(`contests:board.${k}`);
  const challenge = contest.type === 'challenge';
  const students = [
    [h('rank'), h('name'), h('regNo'), h('className'), scoreHeader, h('sessions'), ...(challenge ? [h('levels'), h('passed')] : [])],
    ...byStudent.rows.map((r) => [r.rank, r.name, r.regNo, r.className, r.score, r.sessions, ...(challenge ? [r.levels ?? 0, t(r.passed ? 'contests:board.yes' : 'contests:board.no')] : [])]),
  ];
  const classes = [
    [h('rank'), h('className'), h('participants'), t('contests:board.meanHeader', { score: scoreHeader }), h('sessions'), ...(challenge ? [h('passedCount')] : [])],
    ...byClass.rows.map((r) => [r.rank, r.className, r.participants, r.score, r.sessions, ...(challenge ? [r.passed ?? 0] : [])]),
  ];
  const item = t(`activities:item.${byStudent.item}`);
  const workbook = writeXlsx([
    { name: h('byStudent'), rows: students, columnWidths: [6, 10, 22, 14, 14, 8, 8, 8], textColumns: [2] },
    { name: h('byClass'), rows: classes, columnWidths: [6, 14, 10, 16, 8, 10] },
  ]);
  return { workbook, fileName: `${contest.name}-${item}.xlsx` };
}
