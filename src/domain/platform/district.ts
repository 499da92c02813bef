import type { Period, ViewScope } from '../data-center/types';

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
}

export interface DistrictOverview {
  scope: ViewScope;
  period: Period;
  /** The whole district, summed over its schools. */
  total: Omit<DistrictSchoolRow, 'orgId' | 'name' | 'type'>;
  schools: DistrictSchoolRow[];
}
