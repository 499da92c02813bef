import { z } from 'zod';
import { enumFilter, uuid as idField } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { DRAW_MODES } from './draw';
import { ARRANGE_STATES, EVENT_TYPES, RELAY_LEGS_MAX, RELAY_RESERVES_MAX } from './meets';
import { enumTable } from '../presentation';

/**
 * Registration (docs/product-rules.md#meets): class teachers enter their athletes for events, administrators approve
 * or reject. An athlete enters an event once, at most the meet's athlete cap of events, and a class at most the event's
 * class cap; every athlete gets a bib, allocated upwards from their group's first number and unique in the meet.
 */
/** An entry is one athlete, or a relay team of one class (docs/product-rules.md#meets). */
export const ENTRY_KINDS = ['athlete', 'team'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
export const ENTRY_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export const ENTRY_STATUS_TABLE = enumTable(ENTRY_STATUSES, (s) => `meets:entryStatus.${s}`, { approved: 'primary', rejected: 'danger', pending: 'neutral' });
export const REJECT_REASON_MAX = 100;
export const BIB_MAX_LENGTH = 6;

const uuid = idField();

/** One athlete's events, as the sign-up form sends them (replaces nothing: adds entries). */
export const entrySaveSchema = z
  .object({
    studentId: uuid,
    eventIds: z.array(uuid, { error: 'meets:v.eventsRequired' }).min(1, 'meets:v.eventsRequired').max(20),
    /** Best known mark for seeding (optional). */
    seedMark: z.coerce.number().positive().nullable().optional(),
  })
  .refine((e) => new Set(e.eventIds).size === e.eventIds.length, { message: 'meets:v.sameEventTwice', path: ['eventIds'] });
export type EntrySave = z.output<typeof entrySaveSchema>;

export const TEAM_NAME_MAX = 20;

/**
 * A relay team as the team form sends it: the class, a name, the legs in running order and the reserves (students of
 * the class). The number of legs is the event's (checked with `legsIssue`, which needs the event).
 */
export const teamSaveSchema = z
  .object({
    eventId: uuid,
    classId: uuid,
    teamName: z.string({ error: 'meets:v.teamName' }).trim().min(1, 'meets:v.teamName').max(TEAM_NAME_MAX, 'meets:v.teamNameLength'),
    legs: z.array(uuid, { error: 'meets:v.relayMembers' }).max(RELAY_LEGS_MAX, 'meets:v.relayMembers'),
    reserves: z.array(uuid).max(RELAY_RESERVES_MAX, 'meets:v.relayReserves').default([]),
    seedMark: z.coerce.number().positive().nullable().optional(),
    version: versionField.optional(),
  })
  .refine((t) => new Set([...t.legs, ...t.reserves]).size === t.legs.length + t.reserves.length, { message: 'meets:v.memberTwice', path: ['legs'] });
export type TeamSave = z.output<typeof teamSaveSchema>;
export type TeamForm = z.input<typeof teamSaveSchema>;

/** The message when a team does not run exactly the event's legs (null when it does). */
export function legsIssue(legs: readonly unknown[], relayLegs: number): string | null {
  return legs.length === relayLegs ? null : 'meets:v.relayMembers';
}

/** The default name of a class's team in an event: the class name, then A队, B队… by the teams it already has. */
export function defaultTeamName(className: string, teams: number): string {
  return `${className} ${String.fromCharCode(65 + Math.min(teams, 25))}队`;
}

export interface TeamMember {
  athleteId: string;
  studentId: string;
  name: string;
  /** 1-based running order; null = reserve. */
  leg: number | null;
}

export const entryReviewSchema = z
  .object({
    ids: z.array(uuid).min(1, 'meets:v.pickEntries').max(2000),
    status: z.enum(['approved', 'rejected']),
    reason: z.string().trim().max(REJECT_REASON_MAX, 'meets:v.reasonLength').optional(),
  })
  .refine((r) => r.status === 'approved' || !!r.reason, { message: 'meets:v.reasonRequired', path: ['reason'] });
export type EntryReview = z.output<typeof entryReviewSchema>;

export const bibSaveSchema = z.object({
  bib: z.string().trim().regex(/^\d{1,6}$/, 'meets:v.bibFormat'),
  version: versionField.optional(),
});

export const entryListQuery = listQuery({
  meetId: idFilter,
  eventId: idFilter,
  classId: idFilter,
  name: textFilter(),
  status: enumFilter(ENTRY_STATUSES),
});

export const drawSchema = z.object({
  mode: z.enum(DRAW_MODES).default('seeded'),
  /** Replays a recorded draw; a new one is chosen when absent. */
  seed: z.coerce.number().int().min(1).max(0x7fffffff).optional(),
  /** Events to group; all events of the meet when absent. */
  eventIds: z.array(uuid).max(500).optional(),
});
export type DrawRequest = z.output<typeof drawSchema>;

/** Who can still be entered (the sign-up dialog's search): by name or student number, within a class and for an event. */
export const entryCandidatesQuery = z.object({ keyword: z.string().trim().max(64).default(''), classId: uuid.optional(), eventId: uuid.optional() });

/** Cancels the arrangement of some events (all when absent). */
export const arrangementClearSchema = z.object({ eventIds: z.array(uuid).max(500).optional() });

/** Moves an athlete to a lane of a heat by hand. */
export const laneMoveSchema = z.object({ heatId: uuid, lane: z.coerce.number().int() });

/** Generates the schedule; `confirm` replaces one that exists. */
export const scheduleRequestSchema = z.object({ confirm: z.boolean().default(false) });

/** Moves a heat to a day, start time and venue by hand. */
export const slotMoveSchema = z.object({
  day: z.coerce.number().int().min(0),
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'meets:v.clock'),
  venueId: uuid.nullable().optional(),
});

export interface EntryRow {
  id: string;
  kind: EntryKind;
  /** The athlete's id (null for a team); the team's members. */
  athleteId: string | null;
  members: TeamMember[];
  eventId: string;
  eventName: string;
  groupName: string;
  /** Null for a team. */
  studentId: string | null;
  /** The athlete's name, or the team's name. */
  studentName: string;
  gender: 'male' | 'female' | null;
  classId: string;
  className: string;
  bib: string | null;
  status: EntryStatus;
  reason: string | null;
  seedMark: number | null;
  version: number;
}

/** Next free bib at or above `start` given the bibs in use (numbers as text, e.g. '1001'). */
export function nextBib(start: number, used: ReadonlySet<string>): string {
  let n = start;
  while (used.has(String(n))) n++;
  return String(n);
}

// ── Answers (the OpenAPI document's schemas; they describe what the routes answer) ─────────────────────────────
const nullableText = z.string().nullable();

const teamMemberSchema = z.object({ athleteId: z.string(), studentId: z.string(), name: z.string(), leg: z.number().int().nullable().describe('1-based running order; null = reserve') });

/** A row of a meet's entries (EntryRow): an athlete's entry or a relay team. */
export const entryRowSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  groupName: z.string(),
  studentId: nullableText.describe('Null for a team'),
  studentName: z.string().describe("The athlete's name, or the team's"),
  gender: z.enum(['male', 'female']).nullable(),
  classId: z.string(),
  className: z.string(),
  bib: nullableText,
  kind: z.enum(ENTRY_KINDS),
  athleteId: nullableText.describe('Null for a team'),
  status: z.enum(ENTRY_STATUSES),
  reason: nullableText.describe('Why it was rejected'),
  seedMark: z.number().nullable(),
  version: z.number().int(),
  members: z.array(teamMemberSchema).describe("A team's runners and reserves; empty for an athlete"),
});

/** A student the entry forms may pick. */
export const entryCandidateSchema = z.object({ id: z.string(), name: z.string(), regNo: z.string(), gender: z.string(), className: z.string(), classId: z.string() });
export const entryCandidateListSchema = z.array(entryCandidateSchema);

/** POST …/:id/entries: the entries made and the athlete's bib. */
export const entriesAddedSchema = z.object({ id: z.string().describe('The athlete'), ids: z.array(z.string()).describe('The entries made'), bib: z.string() });

/** POST …/:id/teams: the team's entry and its bib. */
export const teamAddedSchema = z.object({ id: z.string(), bib: z.string() });

const conflictSchema = z.object({
  kind: z.enum(['venue', 'athlete', 'rest']),
  venueId: z.string().optional(),
  athleteId: z.string().optional(),
  eventId: z.string().optional(),
  heatIds: z.array(z.string()).describe('The two heats in conflict'),
});

/** GET …/:id/arrangement: the heats with their lanes and slots, and the schedule's conflicts. */
export const arrangementSchema = z.object({
  arrangeState: z.enum(ARRANGE_STATES),
  drawSeed: z.number().int().nullable(),
  drawMode: z.enum(DRAW_MODES).nullable(),
  days: z.array(z.string()).describe('ISO dates of the meet'),
  heats: z.array(
    z.object({
      id: z.string(),
      eventId: z.string(),
      eventName: z.string(),
      groupName: z.string(),
      type: z.enum(EVENT_TYPES),
      round: z.number().int().describe('0 heats (or the only round), 1 final'),
      no: z.number().int(),
      day: z.number().int().nullable().describe('Index into days; null until scheduled'),
      startMin: z.number().int().nullable().describe('Minutes after midnight'),
      endMin: z.number().int().nullable(),
      venueId: nullableText,
      athletes: z.array(
        z.object({ id: z.string(), heatId: z.string(), lane: z.number().int(), name: z.string(), className: z.string(), bib: nullableText, classId: z.string(), members: z.array(z.object({ name: z.string(), leg: z.number().int().nullable() })) }),
      ),
    }),
  ),
  conflicts: z.array(conflictSchema),
});

/** POST …/:id/draw: the seed drawn with (replays the draw) and how many heats it made. */
export const drawAnswerSchema = z.object({ drawSeed: z.number().int(), mode: z.enum(DRAW_MODES), heatCount: z.number().int() });

/** POST …/:id/schedule: the heats placed. */
export const scheduleAnswerSchema = z.object({ arrangeState: z.literal('scheduled'), slots: z.number().int() });
