import { z } from 'zod';
import { enumFilter, nullableId, uuid as idField } from '../fields';
import { idFilter, listQuery, textFilter, versionField } from '../list-query';
import { isIsoDate } from '../school/school-years';
import { DEFAULT_POINTS_TABLE, DEFAULT_RECORD_BONUS, DEFAULT_RELAY_FACTOR } from './points';
import { RESULT_KINDS, type ResultKind } from './marks';
import { enumTable } from '../presentation';

/**
 * A sports meet (docs/product-rules.md#meets): dates with a morning and an afternoon session each day, venues, a
 * sign-up window that ends no later than the meet starts, groups (e.g. 初中男子组) and the events of each group.
 */
export const MEET_NAME_MAX = 30;
export const GROUP_NAME_MAX = 20;
export const EVENT_NAME_MAX = 20;
export const MAX_LANES = 10;
export const MAX_FLIGHT = 40;
export const MAX_EVENTS_PER_ATHLETE = 10;
export const MAX_CLASS_CAP = 30;
export const MAX_GROUPS = 30;
export const MAX_EVENTS_PER_GROUP = 40;
export const DEFAULT_ATHLETE_CAP = 2;
export const DEFAULT_CLASS_CAP = 2;
/** Relay teams: legs (runners) per team, and reserves a team may name besides them. */
export const RELAY_LEGS_MIN = 2;
export const RELAY_LEGS_MAX = 8;
export const DEFAULT_RELAY_LEGS = 4;
export const RELAY_RESERVES_MAX = 4;
/** Minutes an athlete needs between two heats, and between two rounds of one event. */
export const DEFAULT_CHANGEOVER = 10;
export const DEFAULT_MIN_REST = 30;

export const EVENT_TYPES = ['track', 'field', 'relay', 'fun'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const EVENT_TYPE_TABLE = enumTable(EVENT_TYPES, (x) => `meets:eventType.${x}`);
export const ROUND_PLANS = ['final', 'heatsFinal'] as const;
export type RoundPlan = (typeof ROUND_PLANS)[number];
export const ROUND_PLAN_TABLE = enumTable(ROUND_PLANS, (x) => `meets:rounds.${x}`);
export const GROUP_GENDERS = ['male', 'female', 'mixed'] as const;
export type GroupGender = (typeof GROUP_GENDERS)[number];
export const GROUP_GENDER_TABLE = enumTable(GROUP_GENDERS, (v) => `meets:gender.${v}`);
/** Arrangement states (docs/product-rules.md#meets): ungrouped → grouped → scheduled. */
export const ARRANGE_STATES = ['ungrouped', 'grouped', 'scheduled'] as const;
export type ArrangeState = (typeof ARRANGE_STATES)[number];
export const MEET_STATUSES = ['notStarted', 'signUp', 'inProgress', 'ended'] as const;
export type MeetStatus = (typeof MEET_STATUSES)[number];
export const MEET_STATUS_TABLE = enumTable(MEET_STATUSES, (s) => `meets:status.${s}`, { notStarted: 'neutral', signUp: 'primary', inProgress: 'primary', ended: 'plain' });

/** Track events and relays run in lanes; field and fun events in flights with a starting order. */
export const usesLanes = (type: EventType): boolean => type === 'track' || type === 'relay';

/**
 * A meet's status on a day (ISO date in China, `localDate`): sign-up from its first through its last day (inclusive);
 * not started before sign-up and between its close and the first meet day; an early end ends it at once.
 */
export function meetStatus(m: { signupStart: string; signupEnd: string; startDate: string; endDate: string; endedAt?: string | null }, today: string): MeetStatus {
  if (m.endedAt || today > m.endDate) return 'ended';
  if (today >= m.startDate) return 'inProgress';
  if (today >= m.signupStart && today <= m.signupEnd) return 'signUp';
  return 'notStarted';
}

const uuid = idField();
const date = (key: string) => z.string({ error: key }).refine(isIsoDate, 'validation:date.format');
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'meets:v.clock');
const int = (min: number, max: number, key: string) => z.coerce.number({ error: key }).int(key).min(min, key).max(max, key);

export const sessionSchema = z
  .object({ start: clock, end: clock })
  .refine((s) => s.start < s.end, { message: 'meets:v.sessionOrder', path: ['end'] });

export const eventSaveSchema = z
  .object({
    id: uuid.optional(),
    name: z.string({ error: 'meets:v.eventName' }).trim().min(1, 'meets:v.eventName').max(EVENT_NAME_MAX, 'meets:v.eventNameLength'),
    type: z.enum(EVENT_TYPES, { error: 'meets:v.eventType' }),
    resultKind: z.enum(RESULT_KINDS, { error: 'meets:v.resultKind' }),
    /** Lanes of the track (track and relay); 0 for field and fun events. */
    lanes: int(0, MAX_LANES, 'meets:v.lanes'),
    /** Most athletes (teams) in a heat or flight. */
    heatSize: int(1, MAX_FLIGHT, 'meets:v.heatSize'),
    /** Most entries one class may make in the event. */
    classCap: int(1, MAX_CLASS_CAP, 'meets:v.classCap').default(DEFAULT_CLASS_CAP),
    rounds: z.enum(ROUND_PLANS).default('final'),
    /** Heats → final: the first `advanceByPlace` of each heat go through, the best of the rest fill `finalSize`. */
    advanceByPlace: int(0, MAX_LANES, 'meets:v.advance').default(0),
    finalSize: int(0, MAX_FLIGHT, 'meets:v.finalSize').default(0),
    /** Field attempts per athlete (best of them counts). */
    attempts: int(1, 6, 'meets:v.attempts').default(3),
    /** Runners of a relay team (its legs, in order); other events ignore it. */
    relayLegs: int(RELAY_LEGS_MIN, RELAY_LEGS_MAX, 'meets:v.relayLegs').default(DEFAULT_RELAY_LEGS),
    /** Minutes one heat or flight takes on its venue. */
    duration: int(1, 240, 'meets:v.duration').default(10),
    venueId: nullableId(),
  })
  .superRefine((e, ctx) => {
    if (usesLanes(e.type)) {
      if (e.lanes < 1) ctx.addIssue({ code: 'custom', path: ['lanes'], message: 'meets:v.lanes' });
      // 人数不能超过道次或编码数: a heat holds at most one athlete per lane.
      else if (e.heatSize > e.lanes) ctx.addIssue({ code: 'custom', path: ['heatSize'], message: 'meets:v.headcountOverLanes' });
      if (e.rounds === 'heatsFinal' && e.finalSize > e.lanes) ctx.addIssue({ code: 'custom', path: ['finalSize'], message: 'meets:v.headcountOverLanes' });
    }
    if (e.rounds === 'heatsFinal' && e.finalSize < 1) ctx.addIssue({ code: 'custom', path: ['finalSize'], message: 'meets:v.finalSize' });
    if (e.type === 'relay' && e.resultKind !== 'time') ctx.addIssue({ code: 'custom', path: ['resultKind'], message: 'meets:v.resultKind' });
  });
export type EventSave = z.output<typeof eventSaveSchema>;

export const groupSaveSchema = z.object({
  id: uuid.optional(),
  name: z.string({ error: 'meets:v.groupName' }).trim().min(1, 'meets:v.groupName').max(GROUP_NAME_MAX, 'meets:v.groupNameLength'),
  gender: z.enum(GROUP_GENDERS, { error: 'meets:v.gender' }),
  /** Grades whose students may enter; empty = every grade. */
  gradeIds: z.array(uuid).max(20).default([]),
  /** First bib number of the group (bibs are allocated upwards from it, unique in the meet). */
  bibStart: int(1, 99000, 'meets:v.bibStart'),
  events: z.array(eventSaveSchema).max(MAX_EVENTS_PER_GROUP),
});
export type GroupSave = z.output<typeof groupSaveSchema>;

export const meetSaveSchema = z
  .object({
    name: z.string({ error: 'meets:v.name' }).trim().min(1, 'meets:v.name').max(MEET_NAME_MAX, 'meets:v.nameLength'),
    startDate: date('meets:v.startDate'),
    endDate: date('meets:v.endDate'),
    signupStart: date('meets:v.signupStart'),
    signupEnd: date('meets:v.signupEnd'),
    morning: sessionSchema.nullable().default({ start: '08:00', end: '11:30' }),
    afternoon: sessionSchema.nullable().default({ start: '14:00', end: '17:30' }),
    venueIds: z.array(uuid).max(20).default([]),
    athleteCap: int(1, MAX_EVENTS_PER_ATHLETE, 'meets:v.athleteCap').default(DEFAULT_ATHLETE_CAP),
    pointsTable: z.array(z.coerce.number().min(0).max(100)).min(1, 'meets:v.pointsTable').max(16, 'meets:v.pointsTable').default([...DEFAULT_POINTS_TABLE]),
    relayFactor: z.coerce.number().min(1, 'meets:v.relayFactor').max(4, 'meets:v.relayFactor').default(DEFAULT_RELAY_FACTOR),
    recordBonus: z.coerce.number().min(0, 'meets:v.recordBonus').max(50, 'meets:v.recordBonus').default(DEFAULT_RECORD_BONUS),
    changeover: int(0, 120, 'meets:v.changeover').default(DEFAULT_CHANGEOVER),
    minRest: int(0, 600, 'meets:v.minRest').default(DEFAULT_MIN_REST),
    groups: z.array(groupSaveSchema).max(MAX_GROUPS).default([]),
    version: versionField.optional(),
  })
  .superRefine((m, ctx) => {
    if (m.endDate < m.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'meets:v.endBeforeStart' });
    if (m.signupEnd < m.signupStart) ctx.addIssue({ code: 'custom', path: ['signupEnd'], message: 'meets:v.signupOrder' });
    // The meet may not start before sign-up has ended.
    if (m.startDate < m.signupEnd) ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'meets:v.meetBeforeSignupEnd' });
    if (!m.morning && !m.afternoon) ctx.addIssue({ code: 'custom', path: ['morning'], message: 'meets:v.noSession' });
    if (m.morning && m.afternoon && m.afternoon.start < m.morning.end) ctx.addIssue({ code: 'custom', path: ['afternoon'], message: 'meets:v.sessionOrder' });
    const groupNames = new Set<string>();
    m.groups.forEach((g, gi) => {
      if (groupNames.has(g.name)) ctx.addIssue({ code: 'custom', path: ['groups', gi, 'name'], message: 'meets:v.groupTwice' });
      groupNames.add(g.name);
      const names = new Set<string>();
      g.events.forEach((e, ei) => {
        // 请勿重复选择项目
        if (names.has(e.name)) ctx.addIssue({ code: 'custom', path: ['groups', gi, 'events', ei, 'name'], message: 'meets:v.sameEventTwice' });
        names.add(e.name);
      });
    });
  });
export type MeetSave = z.output<typeof meetSaveSchema>;
export type MeetForm = z.input<typeof meetSaveSchema>;

export const meetListQuery = listQuery({ name: textFilter(), status: enumFilter(MEET_STATUSES) });
export const meetIdQuery = z.object({ meetId: idFilter });

/** Days of a meet as ISO dates. */
export function meetDays(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${startDate}T00:00:00Z`); d.toISOString().slice(0, 10) <= endDate && out.length < 31; d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
}

export interface MeetEventRow extends EventSave {
  id: string;
  groupId: string;
  entryCount: number;
  heatCount: number;
}
export interface MeetGroupRow extends Omit<GroupSave, 'events'> {
  id: string;
  events: MeetEventRow[];
}
/** A row of the meet list as the API answers it (the OpenAPI document's schema of MeetRow). */
export const meetRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  startDate: z.string().describe('ISO date'),
  endDate: z.string().describe('ISO date'),
  signupStart: z.string().describe('ISO date: sign-up opens'),
  signupEnd: z.string().describe('ISO date: sign-up closes, no later than the meet starts'),
  status: z.enum(MEET_STATUSES).describe('From today\'s date and the dates above; ended once ended early'),
  arrangeState: z.enum(ARRANGE_STATES),
  groupCount: z.number().int(),
  eventCount: z.number().int(),
  entryCount: z.number().int().describe('Entries not rejected'),
  version: z.number().int().describe('Send it back with a save: a newer save answers 409'),
});

export type MeetRow = z.output<typeof meetRowSchema>;

const clockOut = z.string().describe('HH:mm');
const nullableIdOut = z.string().nullable();

/** An event of a meet's detail as the API answers it (MeetEventRow). */
export const meetEventRowSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  name: z.string(),
  type: z.enum(EVENT_TYPES),
  resultKind: z.enum(RESULT_KINDS),
  lanes: z.number().int(),
  heatSize: z.number().int(),
  classCap: z.number().int(),
  rounds: z.enum(ROUND_PLANS),
  advanceByPlace: z.number().int(),
  finalSize: z.number().int(),
  attempts: z.number().int(),
  relayLegs: z.number().int(),
  duration: z.number().int().describe('Minutes one heat or flight takes'),
  venueId: nullableIdOut,
  entryCount: z.number().int(),
  heatCount: z.number().int(),
});

/** A meet as its form and screens read it, and as a save answers it (MeetDetail). */
export const meetDetailSchema = meetRowSchema.extend({
  morning: z.object({ start: clockOut, end: clockOut }).nullable(),
  afternoon: z.object({ start: clockOut, end: clockOut }).nullable(),
  venueIds: z.array(z.string()),
  athleteCap: z.number().int(),
  pointsTable: z.array(z.number()),
  relayFactor: z.number(),
  recordBonus: z.number(),
  changeover: z.number().int(),
  minRest: z.number().int(),
  drawSeed: z.number().int().nullable(),
  groups: z.array(
    z.object({ id: z.string(), name: z.string(), gender: z.enum(GROUP_GENDERS), gradeIds: z.array(z.string()), bibStart: z.number().int(), events: z.array(meetEventRowSchema) }),
  ),
});

/** GET …/sportsMeet/options: the venues and the current grades the meet form offers. */
export const meetOptionsSchema = z.object({
  venues: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  grades: z.array(z.object({ id: z.string(), stage: z.string(), gradeNo: z.number().int(), enrolYear: z.number().int() })),
});
export interface MeetDetail extends MeetRow {
  morning: { start: string; end: string } | null;
  afternoon: { start: string; end: string } | null;
  venueIds: string[];
  athleteCap: number;
  pointsTable: number[];
  relayFactor: number;
  recordBonus: number;
  changeover: number;
  minRest: number;
  drawSeed: number | null;
  groups: MeetGroupRow[];
}

export type { ResultKind };
