import { z } from 'zod';
import { UUID_PATTERN } from '../list-query';
import { ACTIVITY_ITEM_KEYS } from './items';

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

const id = z.string().regex(UUID_PATTERN, 'validation:common.id');

/** What a device sends to open a lesson; `clientId` makes a repeated open answer the same lesson. */
export const lessonOpenSchema = z
  .object({
    clientId: z.string().trim().min(1).max(64),
    type: z.enum(LESSON_TYPES, { error: 'activities:lessons.rules.typeRequired' }),
    classId: id,
    teacherId: id.optional(),
    items: z
      .array(z.enum(ACTIVITY_ITEM_KEYS, { error: 'activities:lessons.rules.itemUnknown' }))
      .min(1, 'activities:lessons.rules.itemsRequired')
      .max(LESSON_ITEMS_MAX, 'activities:lessons.rules.itemsTooMany'),
    startedAt: z.iso.datetime({ offset: true, error: 'activities:ingest.timeFormat' }),
    teams: z
      .array(z.object({ name: z.string().trim().min(1).max(TEAM_NAME_MAX, 'activities:lessons.rules.teamName'), studentIds: z.array(id).min(1).max(100) }))
      .min(MATCH_TEAMS_MIN, 'activities:lessons.rules.teamsRequired')
      .max(MATCH_TEAMS_MAX, 'activities:lessons.rules.teamsRequired')
      .optional(),
  })
  .refine((l) => (l.type === 'match') === (l.teams !== undefined), { path: ['teams'], message: 'activities:lessons.rules.teamsRequired' });
export type LessonOpen = z.output<typeof lessonOpenSchema>;

export const lessonCloseSchema = z.object({ endedAt: z.iso.datetime({ offset: true, error: 'activities:ingest.timeFormat' }) });
