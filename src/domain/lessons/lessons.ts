import { z } from 'zod';
import { optionalDay, uuid } from '../fields';
import { idFilter, listQuery, textFilter } from '../list-query';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_ITEMS, type ActivityItemKey } from '../activities/items';

/**
 * PE lessons recorded by devices (docs/product-rules.md#lessons): in-class practice, a class test, or a match between
 * teams of the class. A device opens a lesson, posts its values (activity records of kind 'lesson') and closes it.
 */
export const LESSON_TYPES = ['practise', 'test', 'match'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

export const LESSON_ITEMS_MAX = 5;
export const MATCH_TEAMS_MIN = 2;
export const MATCH_TEAMS_MAX = 4;
export const TEAM_NAME_MAX = 20;

export interface MatchTeam {
  name: string;
  studentIds: string[];
}

const id = uuid();

/** What a device sends to open a lesson; `clientId` makes a repeated open answer the same lesson. */
export const lessonOpenSchema = z
  .object({
    clientId: z.string().trim().min(1).max(64),
    type: z.enum(LESSON_TYPES, { error: 'lessons:rules.typeRequired' }),
    classId: id,
    teacherId: id.optional(),
    items: z
      .array(z.enum(ACTIVITY_ITEM_KEYS, { error: 'lessons:rules.itemUnknown' }))
      .min(1, 'lessons:rules.itemsRequired')
      .max(LESSON_ITEMS_MAX, 'lessons:rules.itemsTooMany'),
    startedAt: z.iso.datetime({ offset: true, error: 'activities:ingest.timeFormat' }),
    teams: z
      .array(z.object({ name: z.string().trim().min(1).max(TEAM_NAME_MAX, 'lessons:rules.teamName'), studentIds: z.array(id).min(1).max(100) }))
      .min(MATCH_TEAMS_MIN, 'lessons:rules.teamsRequired')
      .max(MATCH_TEAMS_MAX, 'lessons:rules.teamsRequired')
      .optional(),
  })
  .refine((l) => (l.type === 'match') === (l.teams !== undefined), { path: ['teams'], message: 'lessons:rules.teamsRequired' });
export type LessonOpen = z.output<typeof lessonOpenSchema>;

export const lessonCloseSchema = z.object({ endedAt: z.iso.datetime({ offset: true, error: 'activities:ingest.timeFormat' }) });

/** The lesson lists' filters: class, from/to day (YYYY-MM-DD, the organisation's time zone). */
export const lessonListQuery = listQuery({
  classId: idFilter,
  keyword: textFilter(),
  from: optionalDay('lessons:rules.dateFormat'),
  to: optionalDay('lessons:rules.dateFormat'),
});
export type LessonListQuery = z.output<typeof lessonListQuery>;

export interface LessonRow {
  id: string;
  type: LessonType;
  orgName: string;
  classId: string;
  className: string;
  teacherName: string | null;
  venueName: string | null;
  deviceName: string | null;
  items: string[];
  startedAt: string;
  endedAt: string | null;
  /** Students with at least one valid value. */
  studentCount: number;
  recordCount: number;
  version: number;
}

/** One student's result in one item of a lesson: the best valid value, attempts, rank in the class (ties share). */
export interface LessonStudentResult {
  studentId: string;
  name: string;
  best: number;
  attempts: number;
  rank: number;
  team: string | null;
}

export interface LessonItemResult {
  item: string;
  unit: string;
  lowerIsBetter: boolean;
  average: number | null;
  students: LessonStudentResult[];
  /** Match only: each team's average of its members' best values, and the winner (null on a tie). */
  teams: { name: string; average: number | null; members: number }[] | null;
  winner: string | null;
}

export interface LessonDetail {
  lesson: LessonRow;
  items: LessonItemResult[];
  /** Match only: the team that won most items (null on a tie or for practice and tests). */
  winner: string | null;
}

/**
 * Ranks students by their best value (ties share a rank: 1, 2, 2, 4) and decides a match (docs/product-rules.md#lessons):
 * each team's average of its members' best values per item, the better average wins the item, the team with most
 * items won wins the match.
 */
export function lessonResults(
  lesson: { type: LessonType; items: readonly string[]; teams: readonly MatchTeam[] | null },
  values: readonly { studentId: string; name: string; item: string; best: number; attempts: number }[],
): { items: LessonItemResult[]; winner: string | null } {
  const teamOf = new Map<string, string>();
  for (const team of lesson.teams ?? []) for (const id of team.studentIds) teamOf.set(id, team.name);
  const items = lesson.items.map((key): LessonItemResult => {
    const meta = ACTIVITY_ITEMS.get(key as ActivityItemKey);
    const lower = meta?.lowerIsBetter ?? false;
    const rows = values.filter((v) => v.item === key).sort((a, b) => (lower ? a.best - b.best : b.best - a.best) || a.name.localeCompare(b.name, 'zh-CN'));
    let rank = 0;
    const students = rows.map((r, i) => {
      if (i === 0 || r.best !== rows[i - 1].best) rank = i + 1;
      return { ...r, rank, team: teamOf.get(r.studentId) ?? null };
    });
    const avg = (list: readonly { best: number }[]) => (list.length ? Math.round((list.reduce((s, r) => s + r.best, 0) / list.length) * 100) / 100 : null);
    const teams = lesson.type === 'match' && lesson.teams ? lesson.teams.map((t) => ({ name: t.name, members: t.studentIds.length, average: avg(students.filter((s) => s.team === t.name)) })) : null;
    let winner: string | null = null;
    if (teams) {
      const scored = teams.filter((t) => t.average !== null).sort((a, b) => (lower ? a.average! - b.average! : b.average! - a.average!));
      if (scored.length > 0 && (scored.length === 1 || scored[0].average !== scored[1].average)) winner = scored[0].name;
    }
    return { item: key, unit: meta?.unit ?? '', lowerIsBetter: lower, average: avg(students), students, teams, winner };
  });
  let winner: string | null = null;
  if (lesson.type === 'match') {
    const wins = new Map<string, number>();
    for (const i of items) if (i.winner) wins.set(i.winner, (wins.get(i.winner) ?? 0) + 1);
    const sorted = [...wins].sort((a, b) => b[1] - a[1]);
    if (sorted.length > 0 && (sorted.length === 1 || sorted[0][1] !== sorted[1][1])) winner = sorted[0][0];
  }
  return { items, winner };
}

// ── Answers (the OpenAPI document's schemas; they describe what the routes answer) ─────────────────────────────
/** A lesson of the list (LessonRow). */
export const lessonRowSchema = z.object({
  id: z.string(),
  type: z.enum(LESSON_TYPES),
  orgName: z.string(),
  classId: z.string(),
  className: z.string(),
  teacherName: z.string().nullable(),
  venueName: z.string().nullable(),
  deviceName: z.string().nullable(),
  items: z.array(z.string()),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  studentCount: z.number().int().describe('Students with at least one valid value'),
  recordCount: z.number().int(),
  version: z.number().int(),
});

/** A lesson with each item's results (LessonDetail). */
export const lessonDetailSchema = z.object({
  lesson: lessonRowSchema,
  items: z.array(
    z.object({
      item: z.string(),
      unit: z.string(),
      lowerIsBetter: z.boolean(),
      average: z.number().nullable(),
      students: z.array(z.object({ studentId: z.string(), name: z.string(), best: z.number(), attempts: z.number().int(), rank: z.number().int(), team: z.string().nullable() })),
      teams: z.array(z.object({ name: z.string(), average: z.number().nullable(), members: z.number().int() })).nullable().describe('Match only'),
      winner: z.string().nullable(),
    }),
  ),
  winner: z.string().nullable().describe('Match only: the team that won most items (null on a tie)'),
});
