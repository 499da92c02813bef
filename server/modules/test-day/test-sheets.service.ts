import { and, asc, count, eq } from 'drizzle-orm';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { testCardCode } from '@/domain/test-day/test-card';
import { rosterFields, type StationRosterQuery, type TestCardsQuery, type TestSheetOptions } from '@/domain/test-day/test-sheets';
import type { DbOrTx } from '../../db/client';
import { classes, grades, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import type { BookDocument, BookSection } from '../../lib/book-pdf';
import { classScopeOf, inClassScope } from '../../lib/data-scope';
import { notFound } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
import { studentsInScope } from '../test-plans/test-plans-manage.service';
import { classInPlanScope, getPlanInScope, planItemsByGrade, type PlanRecord } from '../test-plans/test-plans.service';

/**
 * The printed sheets of a test day (docs/product-rules.md#physique-year, "Test sheets"): test cards and station
 * rosters of a plan's students, as the plan's scope, the caller's organisation and data scope allow.
 */
type Translate = (key: string, options?: Record<string, unknown>) => string;
export interface PdfFile {
  body: Buffer;
  fileName: string;
  contentType: string;
}

interface SheetStudent {
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  classId: string;
  className: string;
  gradeNo: number;
}

/** The plan (another organisation's: 404) and, when one is named, the class: in the plan's scope and the caller's data scope, or 404. */
async function planAndScope(db: DbOrTx, actor: Actor, planId: string, classId?: string) {
  const plan = await getPlanInScope(db, actor.tenantOrgId, planId);
  const scope = await classScopeOf(db, actor);
  if (classId) {
    const [own] = await db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.id, classId), eq(classes.orgId, plan.orgId), classInPlanScope(plan.id), inClassScope(scope, classes.id)));
    if (!own) throw notFound();
  }
  return { plan, scope };
}

/** How many students a class's or the plan's cards and rosters print (the export approval's count). */
export const sheetStudentRows = async (db: DbOrTx, actor: Actor, planId: string, classId?: string): Promise<number> => (await sheetStudents(db, actor, planId, classId)).list.length;

async function sheetStudents(db: DbOrTx, actor: Actor, planId: string, classId?: string): Promise<{ plan: PlanRecord; list: SheetStudent[] }> {
  const { plan, scope } = await planAndScope(db, actor, planId, classId);
  const list = await db
    .select({ name: students.name, regNo: students.regNo, gender: students.gender, classId: classes.id, className: classes.name, gradeNo: grades.gradeNo })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(studentsInScope(plan), inClassScope(scope, students.classId), classId ? eq(students.classId, classId) : undefined))
    .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name), asc(classes.id), asc(students.regNo));
  return { plan, list };
}

/** Students grouped by class, in the order read. */
function byClass(list: readonly SheetStudent[]): { classId: string; className: string; gradeNo: number; students: SheetStudent[] }[] {
  const out = new Map<string, { classId: string; className: string; gradeNo: number; students: SheetStudent[] }>();
  for (const s of list) {
    const group = out.get(s.classId) ?? { classId: s.classId, className: s.className, gradeNo: s.gradeNo, students: [] };
    group.students.push(s);
    out.set(s.classId, group);
  }
  return [...out.values()];
}

const nothingToPrint = () => new AppError(400, 'testSheets:nothingToPrint');

/** The print dialog's choices: the plan's classes the caller may see (with their students) and the plan's items. */
export async function testSheetOptions(db: DbOrTx, actor: Actor, planId: string): Promise<TestSheetOptions> {
  const { plan, scope } = await planAndScope(db, actor, planId);
  const rows = await db
    .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo, students: count(students.id) })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .innerJoin(students, and(eq(students.classId, classes.id), studentsInScope(plan)))
    .where(and(eq(classes.orgId, plan.orgId), classInPlanScope(plan.id), inClassScope(scope, classes.id)))
    .groupBy(classes.id, classes.name, classes.code, grades.gradeNo)
    .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name), asc(classes.id));
  const taken = new Set([...(await planItemsByGrade(db, plan.id)).values()].flat());
  return { planName: plan.name, classes: rows, items: ITEM_KEYS.filter((i) => taken.has(i)) };
}

const fileName = (t: Translate, kind: 'cards' | 'roster', plan: string, scope: string) => `${t(`testSheets:${kind}.fileName`, { plan, scope })}.pdf`;

/** The test cards of one class or of every class of the plan the caller may see. */
export async function testCardsFile(db: DbOrTx, actor: Actor, planId: string, q: TestCardsQuery, t: Translate): Promise<PdfFile> {
  const { plan, list } = await sheetStudents(db, actor, planId, q.classId);
  if (!list.length) throw nothingToPrint();
  const groups = byClass(list);
  // pdf-lib, fontkit and qrcode load with the first sheet, not at start-up.
  const { testCardsPdf } = await import('./test-sheets-pdf');
  const pdf = await testCardsPdf({
    planName: plan.name,
    title: t('testSheets:cards.title'),
    classes: groups.map((g) => ({
      className: g.className,
      students: g.students.map((s) => ({ name: s.name, regNo: s.regNo, className: s.className, gender: t(`physique:gender.${s.gender}`), code: testCardCode(plan.id, s.regNo) })),
    })),
    heading: (className, continued) => t(continued ? 'testSheets:cards.headingContinued' : 'testSheets:cards.heading', { className }),
    count: (n) => t('testSheets:count', { count: n }),
    pageLabel: (page, pages) => t('testSheets:page', { page, pages }),
  });
  const scope = q.classId ? groups[0].className : t('testSheets:allClasses');
  return { body: Buffer.from(pdf), fileName: fileName(t, 'cards', plan.name, scope), contentType: 'application/pdf' };
}

/**
 * A station's roster: by class, the students whose grade takes any of the station's items in this plan
 * (test_plan_items), with a blank column per result field of those items and one for the student's signature.
 */
export async function stationRosterFile(db: DbOrTx, actor: Actor, planId: string, q: StationRosterQuery, t: Translate): Promise<PdfFile> {
  const { plan, list } = await sheetStudents(db, actor, planId, q.classId);
  const itemsOf = await planItemsByGrade(db, plan.id);
  const wanted = ITEM_KEYS.filter((i) => q.items.includes(i));
  const sections: BookSection[] = [];
  let className = '';
  for (const g of byClass(list)) {
    const taken = new Set(itemsOf.get(g.gradeNo) ?? []);
    const items: ItemKey[] = wanted.filter((i) => taken.has(i));
    if (!items.length) continue;
    className = g.className;
    const fields = items.flatMap(rosterFields);
    sections.push({
      heading: t('testSheets:roster.classHeading', { className: g.className, count: g.students.length }),
      newPage: true,
      tables: [
        {
          title: '',
          ruled: true,
          columns: [
            { label: t('testSheets:roster.no'), width: 0.75, align: 'center' },
            { label: t('testSheets:roster.regNo'), width: 2.9 },
            { label: t('testSheets:roster.name'), width: 1.2 },
            { label: t('testSheets:roster.gender'), width: 0.95, align: 'center' },
            ...fields.map((f) => ({ label: t('testSheets:roster.field', { field: t(f === 'heightCm' || f === 'weightKg' ? `physique:field.${f}` : `physique:item.${f}`), unit: t(`physique:unit.${f}`) }), width: 1.4 })),
            { label: t('testSheets:roster.signature'), width: 1.4 },
          ],
          rows: g.students.map((s, i) => [String(i + 1), s.regNo, s.name, t(`physique:gender.${s.gender}`), ...fields.map(() => ''), '']),
          empty: t('testSheets:roster.empty'),
        },
      ],
    });
  }
  if (!sections.length) throw nothingToPrint();
  const itemNames = wanted.map((i) => t(`physique:item.${i}`)).join(t('testSheets:listSeparator'));
  const book: BookDocument = {
    header: plan.name,
    title: t('testSheets:roster.title'),
    subtitle: t('testSheets:roster.items', { items: itemNames }),
    sections,
    pageLabel: (page, pages) => t('testSheets:page', { page, pages }),
    rowHeight: 22,
  };
  const { bookPdf } = await import('../../lib/book-pdf');
  const pdf = await bookPdf(book, (title) => t('testSheets:continued', { title }));
  const scope = q.classId ? className : t('testSheets:allClasses');
  return { body: Buffer.from(pdf), fileName: fileName(t, 'roster', plan.name, scope), contentType: 'application/pdf' };
}
