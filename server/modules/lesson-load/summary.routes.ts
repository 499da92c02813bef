import type { FastifyPluginAsync } from 'fastify';
import type { ServedBy } from '@/domain/menus/access';
import { loadDistrictQuery, loadDistrictSchema, loadSummaryQuery, loadSummarySchema } from '@/domain/lesson-load/reports';
import { resourceAction } from '../../lib/action';
import { CLASS_SCOPE_TABLES } from '../../lib/data-scope';
import { relativeApi } from '../../lib/resource';
import { lessonLoadClassWeeks, lessonLoadSchoolDays, lessonLoadStudents, lessonLoadStudentTerms, lessonLoads } from '../../db/schema/lesson-load';
import { lessons } from '../../db/schema/lessons';
import { orgs } from '../../db/schema/orgs';
import { colleges, grades, schoolYears, semesters, students } from '../../db/schema/school';
import { loadDistrict, loadDistrictExport, loadSummary, loadSummaryExport, loadSummaryExportRows } from './summary.service';

/** What the reports read (server/plugins/read-cache.ts): answers are kept until one of these changes. */
const READS = { readsTables: [...CLASS_SCOPE_TABLES, lessonLoads, lessonLoadStudents, lessonLoadSchoolDays, lessonLoadStudentTerms, lessonLoadClassWeeks, lessons, grades, colleges, students, semesters, schoolYears, orgs] };

/**
 * class/load/summary of /api/busi/web/{k12|gx} (docs/product-rules.md#lesson-load: reports): a term's lesson load by
 * class, teacher, grade (college) or school, within the caller's data scope, and its workbook.
 */
export const loadSummaryRoutes: FastifyPluginAsync<{ family: ServedBy<'class.load.summary'> }> = async (app, { family }) => {
  const key = `${family}.class.load`;
  const base = `${relativeApi(key, family)}/summary`;
  resourceAction(app, {
    method: 'GET',
    path: base,
    access: [key, 'view'],
    config: READS,
    query: loadSummaryQuery,
    answer: loadSummarySchema,
    summary: "A term's lesson load by class, teacher, grade or school, the weekly trend and students persistently below or above",
    read: (db, actor, { query }, { now }) => loadSummary(db, actor, query, now),
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/export`,
    access: [key, 'export'],
    query: loadSummaryQuery,
    answers: 'file',
    // Names the students persistently below or above the target heart rate (docs/product-rules.md#personal-data-access).
    approval: { rows: (db, actor, { query }) => loadSummaryExportRows(db, actor, query, app.now()) },
    read: (db, actor, { query }, { t, now }) => loadSummaryExport(db, actor, query, (k, o) => t(k, o ?? {}), now, family),
  });
};

const DISTRICT = 'admin.class.load';

/** admin class/load (docs/product-rules.md#lesson-load: reports): the district's schools compared over a term, and its workbook. */
export const loadDistrictRoutes: FastifyPluginAsync = async (app) => {
  const base = `${relativeApi(DISTRICT, 'admin')}/schools`;
  resourceAction(app, {
    method: 'GET',
    path: base,
    access: [DISTRICT, 'view'],
    config: READS,
    query: loadDistrictQuery,
    answer: loadDistrictSchema,
    summary: "The district's schools side by side over a term: lessons, share meeting the targets, mean bpm, densities",
    read: (db, actor, { query }, { now }) => loadDistrict(db, actor, query, now),
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/export`,
    access: [DISTRICT, 'export'],
    query: loadDistrictQuery,
    answers: 'file',
    read: (db, actor, { query }, { t, now }) => loadDistrictExport(db, actor, query, (k, o) => t(k, o ?? {}), now),
  });
};
