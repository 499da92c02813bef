import type { FastifyPluginAsync } from 'fastify';
import {
  graduationCohortsSchema,
  graduationExportQuery,
  graduationListQuery,
  graduationPageSchema,
  graduationPrintQuery,
  studentHistorySchema,
  type GraduationPage,
  type GraduationRow,
  type HistoryYear,
} from '@/domain/graduation/graduation';
import { paramsOf } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import { SCORE_LEVELS } from '@/domain/physique/level';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { formatRaw } from '@/domain/physique-results/export-layout';
import { resourceAction, type ActionContext } from '../../lib/action';
import type { ListExportColumn, ListSheet } from '../../lib/list-export';
import type { CardPage, CardRow } from './graduation-pdf';
import { cohortYears, graduationCards, graduationCohorts, graduationPage, graduationRows, studentHistory } from './graduation.service';

type T = ActionContext['t'];
const num = (v: number | null | undefined) => (v == null ? '' : String(Math.round(v * 10) / 10));
const SCORE_LEVEL_SET: ReadonlySet<string> = new Set(SCORE_LEVELS);
/** An item's or a year's level: the score levels, or BMI's bands. */
const levelText = (t: T, level: string | null | undefined) => (!level ? '' : t(SCORE_LEVEL_SET.has(level) ? `physique:level.${level}` : `physique:bmiLevel.${level}`));

/** What a year's cell says when it has no total: 免测, 缓测, or missing. */
function yearNote(t: T, y: { source: string; total: number | null }): string | null {
  if (y.source === 'exempt') return t('graduation:source.exempt');
  if (y.source === 'deferred') return t('graduation:source.deferred');
  if (y.total == null) return t('graduation:source.none');
  return null;
}

function outcomeText(t: T, r: Pick<GraduationRow, 'outcome' | 'score' | 'level' | 'consequence'>): { score: string; level: string; note: string } {
  if (r.outcome === 'exempt') return { score: t('graduation:source.exempt'), level: '', note: t('graduation:outcome.exemptNote') };
  if (r.outcome === 'missing') return { score: '', level: '', note: t('graduation:outcome.missing') };
  return { score: num(r.score), level: levelText(t, r.level), note: r.consequence ? t('graduation:outcome.completion') : '' };
}

/**
 * The cohort's list as a sheet: one row per student, each year's total, the graduation score, level and flags. Each
 * column names the graduation list's column it shows (src/features/graduation/components/graduation-screen.tsx), so the
 * export follows the columns the user shows (server/lib/list-export.ts); the gender is not on the list and stays.
 */
function exportSheet(rows: readonly GraduationRow[], years: GraduationPage['years'], t: T): ListSheet {
  const columns: ListExportColumn[] = [
    { header: t('graduation:column.className'), width: 14, list: 'className' },
    { header: t('graduation:column.name'), width: 10, list: 'name' },
    { header: t('graduation:column.regNo'), width: 22, text: true, list: 'regNo' },
    { header: t('graduation:column.gender'), width: 6 },
    ...years.map((y) => ({ header: t('graduation:column.yearTotal', { year: y.academicYear }), width: 14, list: `year${y.startYear}` })),
    { header: t('graduation:column.score'), width: 10, list: 'score' },
    { header: t('graduation:column.level'), width: 8, list: 'level' },
    { header: t('graduation:column.note'), width: 24, list: 'flags' },
  ];
  const body = rows.map((r) => {
    const o = outcomeText(t, r);
    return [
      r.className,
      r.name,
      r.regNo,
      t(`physique:gender.${r.gender}`),
      ...r.years.map((y) => (y.total != null ? Math.round(y.total * 10) / 10 : yearNote(t, y))),
      r.score ?? o.score,
      o.level,
      [r.belowFifty ? t('graduation:flag.belowFifty') : '', o.note].filter(Boolean).join('；'),
    ];
  });
  return { name: t('graduation:exportSheet'), columns, rows: body };
}

const RAW_UNIT_ITEMS: readonly ItemKey[] = ITEM_KEYS;

/** One student's card: every year of the stage, its items (value, score, level), its totals, the graduation outcome. */
function cardOf(t: T, orgName: string, card: Awaited<ReturnType<typeof graduationCards>>['cards'][number]): CardPage {
  const { student, row, years } = card;
  const present = new Set(years.flatMap((y) => y.items.map((i) => i.item)));
  const items = RAW_UNIT_ITEMS.filter((i) => present.has(i));
  const perYear = (f: (y: HistoryYear) => readonly [string, string, string] | string): CardRow['cells'] => years.map((y) => (yearNote(t, y) !== null && y.items.length === 0 ? yearNote(t, y)! : f(y)));
  const rows: CardRow[] = [
    { label: t('graduation:card.height'), cells: perYear((y) => num(y.heightCm)) },
    { label: t('graduation:card.weight'), cells: perYear((y) => num(y.weightKg)) },
    ...items.map((item) => ({
      label: t(`physique:item.${item}`),
      cells: perYear((y) => {
        const v = y.items.find((i) => i.item === item);
        const raw = formatRaw(item, v?.raw, 'display');
        return [raw == null ? '' : String(raw), num(v?.score), levelText(t, v?.level)] as const;
      }),
    })),
    { label: t('graduation:card.standardScore'), cells: perYear((y) => num(y.standardScore)) },
    { label: t('graduation:card.bonus'), cells: perYear((y) => num(y.bonus)) },
    { label: t('graduation:card.total'), strong: true, cells: years.map((y) => yearNote(t, y) ?? (y.source === 'retest' ? t('graduation:card.retestTotal', { total: num(y.total), plan: num(y.planTotal), retest: num(y.retestTotal) }) : num(y.total))) },
    { label: t('graduation:card.level'), strong: true, cells: years.map((y) => levelText(t, y.level)) },
  ];
  const o = outcomeText(t, row);
  return {
    title: t('graduation:card.title'),
    subtitle: t('graduation:card.subtitle'),
    info: [
      `${t('graduation:card.school')}：${orgName}`,
      `${t('graduation:column.name')}：${student.name}`,
      `${t('graduation:column.gender')}：${t(`physique:gender.${student.gender}`)}`,
      `${t('graduation:column.regNo')}：${student.regNo}`,
      `${t('graduation:column.className')}：${student.className}`,
      `${t('graduation:card.birthDate')}：${student.birthDate ?? ''}`,
    ],
    itemHeader: t('graduation:card.item'),
    yearHeaders: years.map((y) => t('graduation:card.yearHeader', { year: y.academicYear, grade: t(`school:grade.no.${y.gradeNo}`) })),
    subHeaders: [t('graduation:card.raw'), t('graduation:card.score'), t('graduation:card.levelShort')],
    rows,
    graduation: [
      `${t('graduation:column.score')}：${o.score || '—'}    ${t('graduation:column.level')}：${o.level || '—'}`,
      t('graduation:card.rule'),
      ...(o.note ? [o.note] : []),
    ],
    signatures: [t('graduation:card.signPe'), t('graduation:card.signHead'), t('graduation:card.signSchool'), t('graduation:card.signDate')],
  };
}

/**
 * 毕业成绩 of /api/busi/web/{k12|gx}/physiqueManage/graduation (docs/product-rules.md#physique-year: Graduation): the
 * cohorts, the list (and its workbook), the record cards as PDF and a student's history. Reads only.
 */
export const graduationRoutes: FastifyPluginAsync<{ family: ServedBy<'test.graduation'> }> = async (app, { family }) => {
  const key = `${family}.test.graduation`;
  const base = '/physiqueManage/graduation';
  resourceAction(app, { method: 'GET', path: `${base}/cohorts`, access: [key, 'view'], read: (db, actor) => graduationCohorts(db, actor), answer: graduationCohortsSchema });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/page`,
    access: [key, 'view'],
    query: graduationListQuery,
    answer: graduationPageSchema,
    read: (db, actor, { query }) => graduationPage(db, actor, query),
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/export`,
    access: [key, 'export'],
    query: graduationExportQuery,
    answers: 'file',
    // Students' results over their years (docs/product-rules.md#personal-data-access).
    approval: { rows: async (db, actor, { query }) => (await graduationRows(db, actor, query)).rows.length },
    read: async (db, actor, { query }, { t }) => {
      const { cohort, rows } = await graduationRows(db, actor, query);
      const name = cohort ? t('graduation:exportName', { year: cohort.graduationYear, stage: t(`school:grade.stages.${cohort.stage}`) }) : t('graduation:exportSheet');
      return { sheet: exportSheet(rows, cohortYears(cohort), t), fileName: `${name}.xlsx` };
    },
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/cards.pdf`,
    access: [key, 'print'],
    query: graduationPrintQuery,
    answers: 'file',
    summary: 'The graduation record cards (《国家学生体质健康标准登记卡》) of one student, a class or the cohort, as PDF',
    // One card per student (docs/product-rules.md#personal-data-access).
    approval: { rows: async (db, actor, { query }) => (await graduationCards(db, actor, query)).cards.length },
    read: async (db, actor, { query }, { t }) => {
      const { orgName, cohort, cards } = await graduationCards(db, actor, query);
      // pdf-lib and the font load with the first card, not at start-up.
      const { graduationCardsPdf } = await import('./graduation-pdf');
      const title = t('graduation:card.title');
      const pdf = await graduationCardsPdf(cards.map((c) => cardOf(t, orgName, c)), title);
      const who = cards.length === 1 && query.studentId ? cards[0].student.name : cohort.graduationYear;
      return { body: Buffer.from(pdf), fileName: t('graduation:card.fileName', { who }), contentType: 'application/pdf' };
    },
  });
  resourceAction(app, {
    method: 'GET',
    path: `${base}/history/:studentId`,
    access: [key, 'detail'],
    params: paramsOf('studentId'),
    answer: studentHistorySchema,
    read: (db, actor, { params }) => studentHistory(db, actor, params.studentId),
  });
};
