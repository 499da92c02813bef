import type { DataCenterFilter } from './filters';
import type { ItemStats, LevelCounts, Period, TrendPoint, ViewScope, WeakItem } from './types';

/**
 * The district overview (docs/product-rules.md#district-overview): a management organisation's schools side by
 * side for one period, and the district's own figures. Rates are fractions (0–1, 4 decimals), null without a base.
 */
export interface DistrictSchoolRow {
  orgId: string;
  name: string;
  /** 21 K12 school, 22 university. */
  type: number;
  /** Enabled students now. */
  students: number;
  /** Students with a valid result in the period, and those with a total score. */
  tested: number;
  assessed: number;
  excellentRate: number | null;
  goodRate: number | null;
  passRate: number | null;
  failRate: number | null;
  meanTotal: number | null;
  /** Students who handed in homework / took part in a contest in the period's school year (valid records), and their share of `students`. */
  homeworkStudents: number;
  homeworkRate: number | null;
  contestStudents: number;
  contestRate: number | null;
  devices: number;
  devicesOnline: number;
  /** Assessed students per level (the level distribution), and every item's mean score and shares (weak items). */
  levels: LevelCounts;
  items: ItemStats;
}

/** One school in one school year of the district's trend. */
export interface DistrictTrendSchool {
  orgId: string;
  tested: number;
  meanTotal: number | null;
  excellentRate: number | null;
  passRate: number | null;
}

/** A school year of the district's trend: the district's figures (no roster: participation null) and each school's. */
export interface DistrictTrendPoint extends TrendPoint {
  schools: DistrictTrendSchool[];
}

export interface DistrictOverview {
  scope: ViewScope;
  period: Period;
  /** The whole district, summed over its schools. */
  total: Omit<DistrictSchoolRow, 'orgId' | 'name' | 'type'>;
  schools: DistrictSchoolRow[];
  /** The filters the figures are for, defaults applied (a chart's drill-down carries them to the school's data centre). */
  filters: DataCenterFilter;
  /** Every school year with results (same semester and gender), oldest first. */
  trend: DistrictTrendPoint[];
  /** The district's items by mean score, weakest first. */
  weakestItems: WeakItem[];
}

/** The district's wall scene (docs/product-rules.md#wall-display): counts and school figures, never a student. */
export interface DistrictSceneData {
  scene: 'districtSchools';
  total: DistrictOverview['total'];
  schools: DistrictSchoolRow[];
}
