import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LESSON_TYPES, type MatchTeam } from '../../../src/domain/lessons/lessons';
import { orgs } from './orgs';
import { classes, teachers } from './school';
import { devices, venues } from './venue';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A PE lesson recorded by a device (docs/product-rules.md#lessons): in-class practice, a class test or a match. The device
 * opens it (class, teacher, items, start), posts its values as activity_records of kind 'lesson' with `ref_id` = the
 * lesson, and closes it. Its records go with it when it is deleted.
 */
export const lessons = pgTable(
  'lessons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    type: text('type', { enum: LESSON_TYPES }).notNull(),
    classId: uuid('class_id').notNull().references(() => classes.id),
    teacherId: uuid('teacher_id').references(() => teachers.id),
    venueId: uuid('venue_id').references(() => venues.id),
    deviceId: uuid('device_id').references(() => devices.id),
    /** The device's own id of the lesson: opening it again answers the same lesson. */
    clientId: text('client_id').notNull(),
    items: text('items').array().notNull(),
    /** Match only: the teams and their students. */
    teams: jsonb('teams').$type<MatchTeam[]>(),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lessons_device_client_uq').on(t.deviceId, t.clientId), index('lessons_org_type_time_idx').on(t.orgId, t.type, t.startedAt), index('lessons_class_idx').on(t.classId)],
);
