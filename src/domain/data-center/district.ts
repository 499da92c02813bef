import { z } from 'zod';
import { dataCenterFilterSchema } from './filters';
import { itemStatsSchema, levelCountsSchema, periodSchema, trendPointSchema, viewScopeSchema, weakItemSchema } from './types';

/**
 * The district overview (docs/product-rules.md#district-overview): a management organisation's schools side by
 * side for one period, and the district's own figures. Rates are fractions (0–1, 4 decimals), null without a base.
 */
export const districtSchoolRowSchema = z.object({
  orgId: z.string(),
  name: z.string(),
  /** 21 K12 school, 22 university. */
  type: z.number(),
  /** Enabled students now. */
  students: z.number(),
  /** Students with a valid result in the period, and those with a total score. */
  tested: z.number(),
  assessed: z.number(),
  excellentRate: z.number().nullable(),
  goodRate: z.number().nullable(),
  passRate: z.number().nullable(),
  failRate: z.number().nullable(),
  meanTotal: z.number().nullable(),
  /** Students who handed in homework / took part in a contest in the period's school year (valid records), and their share of `students`. */
  homeworkStudents: z.number(),
  homeworkRate: z.number().nullable(),
  contestStudents: z.number(),
  contestRate: z.number().nullable(),
  devices: z.number(),
  devicesOnline: z.number(),
  /** Assessed students per level (the level distribution), and every item's mean score and shares (weak items). */
  levels: levelCountsSchema,
  items: itemStatsSchema,
});
export type DistrictSchoolRow = z.output<typeof districtSchoolRowSchema>;

/** One school in one school year of the district's trend. */
export const districtTrendSchoolSchema = z.object({
  orgId: z.string(),
  tested: z.number(),
  meanTotal: z.number().nullable(),
  excellentRate: z.number().nullable(),
  passRate: z.number().nullable(),
});
export type DistrictTrendSchool = z.output<typeof districtTrendSchoolSchema>;

/** A school year of the district's trend: the district's figures (no roster: participation null) and each school's. */
export const districtTrendPointSchema = trendPointSchema.extend({ schools: z.array(districtTrendSchoolSchema) });
export type DistrictTrendPoint = z.output<typeof districtTrendPointSchema>;

/** The whole district, summed over its schools. */
export const districtTotalSchema = districtSchoolRowSchema.omit({ orgId: true, name: true, type: true });

export const districtOverviewSchema = z.object({
  scope: viewScopeSchema,
  period: periodSchema,
  total: districtTotalSchema,
  schools: z.array(districtSchoolRowSchema),
  /** The filters the figures are for, defaults applied (a chart's drill-down carries them to the school's data centre). */
  filters: dataCenterFilterSchema,
  /** Every school year with results (same semester and gender), oldest first. */
  trend: z.array(districtTrendPointSchema),
  /** The district's items by mean score, weakest first. */
  weakestItems: z.array(weakItemSchema),
});
export type DistrictOverview = z.output<typeof districtOverviewSchema>;

/** The district's wall scene (docs/product-rules.md#wall-display): counts and school figures, never a student. */
export interface DistrictSceneData {
  scene: 'districtSchools';
  total: DistrictOverview['total'];
  schools: DistrictSchoolRow[];
}
