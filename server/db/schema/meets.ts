import { sql } from 'drizzle-orm';
import { boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ARRANGE_STATES, EVENT_TYPES, GROUP_GENDERS, ROUND_PLANS } from '../../../src/domain/meets/meets';
import { ENTRY_KINDS, ENTRY_STATUSES } from '../../../src/domain/meets/entries';
import { RESULT_KINDS } from '../../../src/domain/meets/marks';
import { RESULT_STATUSES } from '../../../src/domain/meets/ranking';
import { RESULT_STATES } from '../../../src/domain/meets/results';
import type { CertificateField } from '../../../src/domain/meets/documents';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';
import { classes, grades, students } from './school';
import { venues } from './venue';

/**
 * Sports meets (docs/product-rules.md#meets). A meet has groups, each with events; athletes (students with a bib)
 * enter events; the arrangement splits each event's round into heats with lanes (results live on the same rows: one
 * per athlete per heat); heats carry their schedule slot. Records are per organisation, event name and group name,
 * with their history. Points are computed from published results (nothing stored).
 */
const at = (name: string) => timestamp(name, { withTimezone: true });
const created = () => at('created_at').notNull().defaultNow();
const version = () => integer('version').notNull().default(1);

export const meets = pgTable(
  'meets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    signupStart: date('signup_start').notNull(),
    signupEnd: date('signup_end').notNull(),
    /** {start,end} 'HH:MM' of the morning and afternoon sessions of every day, or null when the meet has none. */
    morning: jsonb('morning').$type<{ start: string; end: string } | null>(),
    afternoon: jsonb('afternoon').$type<{ start: string; end: string } | null>(),
    venueIds: jsonb('venue_ids').$type<string[]>().notNull().default([]),
    athleteCap: smallint('athlete_cap').notNull().default(2),
    pointsTable: jsonb('points_table').$type<number[]>().notNull(),
    relayFactor: doublePrecision('relay_factor').notNull().default(2),
    recordBonus: doublePrecision('record_bonus').notNull().default(0),
    changeover: smallint('changeover').notNull().default(10),
    minRest: smallint('min_rest').notNull().default(30),
    arrangeState: text('arrange_state', { enum: ARRANGE_STATES }).notNull().default('ungrouped'),
    /** Seed of the last draw (replays it), with its mode. */
    drawSeed: integer('draw_seed'),
    drawMode: text('draw_mode'),
    endedAt: at('ended_at'),
    version: version(),
    createdAt: created(),
  },
  (t) => [index('meets_org_idx').on(t.orgId, t.startDate)],
);

export const meetGroups = pgTable(
  'meet_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gender: text('gender', { enum: GROUP_GENDERS }).notNull(),
    gradeIds: jsonb('grade_ids').$type<string[]>().notNull().default([]),
    bibStart: integer('bib_start').notNull(),
    sort: smallint('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('meet_groups_name_uq').on(t.meetId, t.name)],
);

export const meetEvents = pgTable(
  'meet_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').notNull().references(() => meetGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: EVENT_TYPES }).notNull(),
    resultKind: text('result_kind', { enum: RESULT_KINDS }).notNull(),
    lanes: smallint('lanes').notNull().default(0),
    heatSize: smallint('heat_size').notNull(),
    classCap: smallint('class_cap').notNull(),
    rounds: text('rounds', { enum: ROUND_PLANS }).notNull().default('final'),
    advanceByPlace: smallint('advance_by_place').notNull().default(0),
    finalSize: smallint('final_size').notNull().default(0),
    attempts: smallint('attempts').notNull().default(3),
    /** Legs of a relay team (members who run); other events ignore it. */
    relayLegs: smallint('relay_legs').notNull().default(4),
    duration: smallint('duration').notNull().default(10),
    venueId: uuid('venue_id').references(() => venues.id),
    sort: smallint('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('meet_events_name_uq').on(t.groupId, t.name), index('meet_events_meet_idx').on(t.meetId)],
);

/** An athlete of a meet: the student, their class at sign-up and their bib (unique in the meet). */
export const meetAthletes = pgTable(
  'meet_athletes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    gradeId: uuid('grade_id').notNull().references(() => grades.id),
    groupId: uuid('group_id').notNull().references(() => meetGroups.id),
    bib: text('bib').notNull(),
    version: version(),
  },
  (t) => [uniqueIndex('meet_athletes_student_uq').on(t.meetId, t.studentId), uniqueIndex('meet_athletes_bib_uq').on(t.meetId, t.bib)],
);

/**
 * An entry in an event, with its review: one athlete, or (relay events) a team of a class with its own name and bib
 * (unique in the meet together with the athletes' bibs) whose members are in meet_relay_members.
 */
export const meetEntries = pgTable(
  'meet_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull().references(() => meetEvents.id),
    kind: text('kind', { enum: ENTRY_KINDS }).notNull().default('athlete'),
    /** The athlete of an individual entry; null for a team. */
    athleteId: uuid('athlete_id').references(() => meetAthletes.id, { onDelete: 'cascade' }),
    teamName: text('team_name'),
    /** The team's bib; an athlete's bib is on meet_athletes. */
    bib: text('bib'),
    classId: uuid('class_id').notNull().references(() => classes.id),
    status: text('status', { enum: ENTRY_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    seedMark: doublePrecision('seed_mark'),
    createdBy: uuid('created_by').references(() => users.id),
    reviewedBy: uuid('reviewed_by').references(() => users.id),
    version: version(),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('meet_entries_event_athlete_uq').on(t.eventId, t.athleteId),
    index('meet_entries_meet_idx').on(t.meetId, t.status),
    index('meet_entries_class_idx').on(t.eventId, t.classId),
    uniqueIndex('meet_entries_team_uq').on(t.eventId, t.teamName),
    uniqueIndex('meet_entries_bib_uq').on(t.meetId, t.bib),
    check('meet_entries_kind_ck', sql`(${t.kind} = 'athlete') = (${t.athleteId} is not null) and (${t.kind} = 'team') = (${t.teamName} is not null and ${t.bib} is not null)`),
  ],
);

/** The members of a relay team: the legs in running order (1..relayLegs) and the reserves (leg null). */
export const meetRelayMembers = pgTable(
  'meet_relay_members',
  {
    entryId: uuid('entry_id').notNull().references(() => meetEntries.id, { onDelete: 'cascade' }),
    athleteId: uuid('athlete_id').notNull().references(() => meetAthletes.id, { onDelete: 'cascade' }),
    leg: smallint('leg'),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.athleteId] }), uniqueIndex('meet_relay_members_leg_uq').on(t.entryId, t.leg), index('meet_relay_members_athlete_idx').on(t.athleteId)],
);

/** A heat (track) or flight (field) of an event's round, with its schedule slot once scheduled. */
export const meetHeats = pgTable(
  'meet_heats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull().references(() => meetEvents.id, { onDelete: 'cascade' }),
    /** 0 = heats (or a straight final), 1 = final after heats. */
    round: smallint('round').notNull().default(0),
    no: smallint('no').notNull(),
    venueId: uuid('venue_id').references(() => venues.id),
    /** Day index from the meet's first day, and minutes from midnight. */
    day: smallint('day'),
    startMin: smallint('start_min'),
    endMin: smallint('end_min'),
  },
  (t) => [uniqueIndex('meet_heats_no_uq').on(t.eventId, t.round, t.no), index('meet_heats_meet_idx').on(t.meetId)],
);

/** One athlete in one heat: the lane (or starting order) and the result. */
export const meetResults = pgTable(
  'meet_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    heatId: uuid('heat_id').notNull().references(() => meetHeats.id, { onDelete: 'cascade' }),
    entryId: uuid('entry_id').notNull().references(() => meetEntries.id, { onDelete: 'cascade' }),
    lane: smallint('lane').notNull(),
    mark: doublePrecision('mark'),
    attempts: jsonb('attempts').$type<(number | null)[]>(),
    failuresAtBest: smallint('failures_at_best'),
    failures: smallint('failures'),
    status: text('status', { enum: RESULT_STATUSES }).notNull().default('ok'),
    state: text('state', { enum: RESULT_STATES }).notNull().default('pending'),
    place: smallint('place'),
    qualified: boolean('qualified').notNull().default(false),
    newRecord: boolean('new_record').notNull().default(false),
    invalid: boolean('invalid').notNull().default(false),
    invalidReason: text('invalid_reason'),
    enteredBy: uuid('entered_by').references(() => users.id),
    confirmedBy: uuid('confirmed_by').references(() => users.id),
    publishedAt: at('published_at'),
    version: version(),
  },
  (t) => [uniqueIndex('meet_results_lane_uq').on(t.heatId, t.lane), uniqueIndex('meet_results_entry_uq').on(t.heatId, t.entryId), index('meet_results_meet_idx').on(t.meetId, t.state)],
);

/**
 * Meet and school records per organisation, event name and group name. A record beaten by a published result is
 * added as 'pending'; approving it makes it 'current' and the one it beat 'history'.
 */
export const meetRecords = pgTable(
  'meet_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    scope: text('scope', { enum: ['meet', 'school'] }).notNull(),
    eventName: text('event_name').notNull(),
    groupName: text('group_name').notNull(),
    resultKind: text('result_kind', { enum: RESULT_KINDS }).notNull(),
    mark: doublePrecision('mark').notNull(),
    holder: text('holder').notNull(),
    className: text('class_name'),
    setOn: date('set_on').notNull(),
    meetId: uuid('meet_id').references(() => meets.id, { onDelete: 'set null' }),
    resultId: uuid('result_id').references(() => meetResults.id, { onDelete: 'set null' }),
    state: text('state', { enum: ['pending', 'current', 'history'] }).notNull().default('current'),
    version: version(),
    createdAt: created(),
  },
  (t) => [
    index('meet_records_org_idx').on(t.orgId, t.eventName, t.groupName),
    uniqueIndex('meet_records_current_uq').on(t.orgId, t.scope, t.eventName, t.groupName).where(sql`${t.state} = 'current'`),
  ],
);

/** Electronic stamps of an organisation (PNG, 1:1, at most ESTAMP_MAX). */
export const meetStamps = pgTable(
  'meet_stamps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    fileId: uuid('file_id').notNull().references(() => files.id),
    createdAt: created(),
  },
  (t) => [index('meet_stamps_org_idx').on(t.orgId)],
);

/**
 * Certificate templates of an organisation (docs/product-rules.md#meet-documents): used for any of its meets. Fields are
 * positioned in millimetres from the page's top left (src/domain/meets/documents.ts).
 */
export const meetCertificates = pgTable(
  'meet_certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    backgroundFileId: uuid('background_file_id').references(() => files.id),
    orientation: text('orientation', { enum: ['portrait', 'landscape'] }).notNull().default('landscape'),
    fields: jsonb('fields').$type<CertificateField[]>().notNull().default([]),
    stampId: uuid('stamp_id').references(() => meetStamps.id, { onDelete: 'set null' }),
    stampX: doublePrecision('stamp_x'),
    stampY: doublePrecision('stamp_y'),
    stampSize: doublePrecision('stamp_size'),
    version: version(),
    createdAt: created(),
  },
  (t) => [index('meet_certificates_org_idx').on(t.orgId, t.name)],
);

/** Style photos (运动风采) of a meet: at most STYLE_PHOTO_MAX. */
export const meetPhotos = pgTable(
  'meet_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    meetId: uuid('meet_id').notNull().references(() => meets.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id').notNull().references(() => files.id),
    caption: text('caption'),
    version: version(),
    createdAt: created(),
  },
  (t) => [index('meet_photos_meet_idx').on(t.meetId, t.createdAt), uniqueIndex('meet_photos_file_uq').on(t.meetId, t.fileId)],
);
