/**
 * The console document describes every answer of the activity, meet and content modules (meets, contests, homework,
 * lessons, training, exercise records, banners, wiki, lesson resources): each route's 200 names its data's schema, and
 * the real answers on the demo data fit those schemas exactly (no field missing from the schema, none of another type).
 * File routes (workbooks, PDFs, streamed files, multipart imports) answer a file, not the envelope: listed below.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { pageSchema } from '@/domain/api';
import { activityOptionsSchema } from '@/domain/activities/exercise-records';
import { contestRowSchema, leaderboardSchema, participationSchema } from '@/domain/contests/contests';
import {
  homeworkClassCompletionSchema,
  homeworkDetailSchema,
  homeworkOptionsSchema,
  homeworkRowSchema,
  homeworkStudentCompletionSchema,
} from '@/domain/homework/homework';
import { trainingDetailSchema, trainingOptionsSchema, trainingProgressSchema, trainingRowSchema, trainingSessionSchema } from '@/domain/training/training';
import { lessonResourceRowSchema, libraryRowSchema } from '@/domain/content/lesson-resources';
import { wikiEntrySchema, wikiRowSchema } from '@/domain/content/wiki';
import { meetBoardViewSchema } from '@/domain/meets/board';
import { issueOptionsSchema } from '@/domain/meets/documents';
import { arrangementSchema, entryCandidateListSchema, entryRowSchema } from '@/domain/meets/entries';
import { meetDetailSchema, meetOptionsSchema, meetRowSchema } from '@/domain/meets/meets';
import { pointsViewSchema } from '@/domain/meets/points';
import { recordRowSchema } from '@/domain/meets/records';
import { heatResultListSchema } from '@/domain/meets/results';
import { createMeet, createWiki, dataOf, DEMO } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}

/** The routes of these modules, under /api/busi/web/{family}/. */
const MODULES = /^\/api\/busi\/web\/\w+\/(sportsMeet|onlineManagement|sportsHomework|specialTraining|class\/(practise|test|match)|exerciseRecord|banner|wikiManagement|lessonAssistant)(\/|$)/;

/** Routes answering a file rather than the envelope (hand routes until the kit answers files: TODO(kitopts)). */
const FILE_ROUTES = [
  /\/export$/,
  /\/import\/template$/,
  /\/import$/,
  /\/(results-book|points-table)\.pdf$/,
  /\/library\/\{id\}\/cover$/,
];

let t: TestApp;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  t = await createTestApp({ seeded: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  const res = await t.app.inject({ url: '/api/docs/console/json' });
  expect(res.statusCode).toBe(200);
  paths = res.json<{ paths: typeof paths }>().paths;
});
afterAll(async () => t?.close());

/** The data's JSON schema of an operation's 200 answer, or undefined when it is not described. */
function dataSchema(op: Operation): unknown {
  const data = op.responses['200']?.content?.['application/json']?.schema?.properties?.data as { properties?: { records?: { items?: unknown } } } | undefined;
  if (!data || JSON.stringify(data) === '{}') return undefined;
  const records = data.properties?.records;
  if (records && JSON.stringify(records.items) === '{}') return undefined;
  return data;
}

/** The answer fits the schema exactly: parsing keeps every field (an undescribed field would be stripped) and changes none. */
function fits(schema: z.ZodType, data: unknown) {
  const parsed = schema.safeParse(data);
  expect(parsed.error, JSON.stringify(data).slice(0, 400)).toBeUndefined();
  expect(parsed.data).toEqual(data);
}

describe('console answers of the activity, meet and content modules', () => {
  it('every route of these modules describes its data, file routes aside', () => {
    const undescribed: string[] = [];
    let described = 0;
    for (const [path, ops] of Object.entries(paths)) {
      if (!MODULES.test(path) || FILE_ROUTES.some((f) => f.test(path))) continue;
      for (const [method, op] of Object.entries(ops)) {
        if (dataSchema(op) === undefined) undescribed.push(`${method.toUpperCase()} ${path}`);
        else described++;
      }
    }
    expect(undescribed).toEqual([]);
    expect(described).toBeGreaterThan(150);
  });

  it('the demo school\'s answers fit the schemas', async () => {
    const school = t.as(DEMO.school);
    const B = '/api/busi/web/k12';
    const read = async (url: string, schema: z.ZodType) => {
      const data = dataOf(await school.get(url));
      fits(schema, data);
      return data as never;
    };

    // Meets: list, detail, options, and the screens of the ended demo meet (arranged, with results and points).
    const meets: { records: { id: string; status: string }[] } = await read(`${B}/sportsMeet/page?size=80`, pageSchema(meetRowSchema));
    await read(`${B}/sportsMeet/options`, meetOptionsSchema);
    for (const m of meets.records) {
      await read(`${B}/sportsMeet/${m.id}`, meetDetailSchema);
      await read(`${B}/sportsMeet/${m.id}/entries?size=80`, pageSchema(entryRowSchema));
      await read(`${B}/sportsMeet/${m.id}/entries/candidates`, entryCandidateListSchema);
      const arrangement: { heats: { id: string }[] } = await read(`${B}/sportsMeet/${m.id}/arrangement`, arrangementSchema);
      for (const heat of arrangement.heats.slice(0, 3)) await read(`${B}/sportsMeet/${m.id}/heats/${heat.id}/results`, heatResultListSchema);
      await read(`${B}/sportsMeet/${m.id}/points`, pointsViewSchema);
      await read(`${B}/sportsMeet/${m.id}/board`, meetBoardViewSchema);
    }
    expect(meets.records.some((m) => m.status === 'ended')).toBe(true);
    const records: { records: { id: string }[] } = await read(`${B}/sportsMeet/records/page?size=80`, pageSchema(recordRowSchema));
    await read(`${B}/sportsMeet/records/${records.records[0].id}`, recordRowSchema);
    await read(`${B}/sportsMeet/certificates/issue/options`, issueOptionsSchema);

    // A new meet: the create's answer is the detail.
    const created = await createMeet(t, { entries: 1 });
    fits(meetDetailSchema, created.meet);

    // Contests.
    const contests: { records: { id: string }[] } = await read(`${B}/onlineManagement/competitionRank/page`, pageSchema(contestRowSchema));
    await read(`${B}/onlineManagement/competitionRank/options`, activityOptionsSchema);
    const contest = contests.records[0].id;
    await read(`${B}/onlineManagement/competitionRank/${contest}`, contestRowSchema);
    await read(`${B}/onlineManagement/competitionRank/${contest}/leaderboard`, leaderboardSchema);
    await read(`${B}/onlineManagement/competitionRank/${contest}/leaderboard?by=class`, leaderboardSchema);
    await read(`${B}/onlineManagement/competitionRank/${contest}/participation`, participationSchema);

    // Homework.
    const homework: { records: { id: string }[] } = await read(`${B}/sportsHomework/homeworkManagement/page`, pageSchema(homeworkRowSchema));
    await read(`${B}/sportsHomework/homeworkManagement/options`, homeworkOptionsSchema);
    for (const h of homework.records) {
      await read(`${B}/sportsHomework/homeworkManagement/${h.id}`, homeworkDetailSchema);
      await read(`${B}/sportsHomework/homeworkManagement/${h.id}/classes`, homeworkClassCompletionSchema);
      await read(`${B}/sportsHomework/homeworkManagement/${h.id}/students`, pageSchema(homeworkStudentCompletionSchema));
    }

    // Training.
    const plans: { records: { id: string }[] } = await read(`${B}/specialTraining/specialTrainingList/page`, pageSchema(trainingRowSchema));
    await read(`${B}/specialTraining/specialTrainingList/options`, trainingOptionsSchema);
    const plan = plans.records[0].id;
    await read(`${B}/specialTraining/specialTrainingList/${plan}`, trainingDetailSchema);
    await read(`${B}/specialTraining/specialTrainingList/${plan}/progress`, pageSchema(trainingProgressSchema));
    await read(`${B}/specialTraining/specialTrainingList/${plan}/sessions`, pageSchema(trainingSessionSchema));

    // Exercise records' filters.
    await read(`${B}/exerciseRecord/options`, activityOptionsSchema);

    // Content: wiki (list, entry, a new entry and its publishing) and lesson resources (own list and the library).
    const wiki: { records: { id: string }[] } = await read(`${B}/wikiManagement/schoolWiki/page`, pageSchema(wikiRowSchema));
    await read(`${B}/wikiManagement/schoolWiki/${wiki.records[0].id}`, wikiEntrySchema);
    const entry = await createWiki(t);
    fits(wikiRowSchema, dataOf(await school.put(`${B}/wikiManagement/schoolWiki/${entry.id}/publish`, { published: true, version: entry.version })));
    const resources: { records: { id: string }[] } = await read(`${B}/lessonAssistant/lessonResourceList/page`, pageSchema(lessonResourceRowSchema));
    await read(`${B}/lessonAssistant/lessonResourceList/${resources.records[0].id}`, lessonResourceRowSchema);
    await read(`${B}/lessonAssistant/lessonResourceList/library/page`, pageSchema(libraryRowSchema));
  });
});
