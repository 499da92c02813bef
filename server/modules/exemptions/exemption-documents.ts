import type { TFunction } from 'i18next';
import { and, eq } from 'drizzle-orm';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { ExemptionRow } from '@/domain/exemptions/exemptions';
import type { DbOrTx } from '../../db/client';
import { orgs } from '../../db/schema/orgs';
import { students } from '../../db/schema/school';
import type { ListSheet } from '../../lib/list-export';
import type { Actor } from '../../plugins/tenant';
import { exemptionById } from './exemptions.service';

/** The exports and the printable form of exemption requests (docs/product-rules.md#physique-year, "Exemptions"). */

const instant = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso)) : '';
const grade = (t: TFunction, gradeNo: number) => t(`school:grade.no.${gradeNo}`);

/**
 * The requests of the current filter as the list's sheet: each column names the exemption list's column it shows
 * (src/features/exemptions/exemption-screens.tsx), so the export follows the columns the user shows
 * (server/lib/list-export.ts). Gender and grade are not on the list: they keep their places.
 */
export function exemptionSheet(rows: readonly ExemptionRow[], t: TFunction): { sheet: ListSheet; fileName: string } {
  const columns: [key: string, list: string | undefined, width: number, text?: boolean][] = [
    ['academicYear', 'academicYear', 12],
    ['name', 'name', 10],
    ['regNo', 'name', 22, true],
    ['gender', undefined, 6],
    ['grade', undefined, 10],
    ['className', 'className', 14],
    ['kind', 'kind', 10],
    ['reason', 'reason', 40],
    ['certificate', 'certificateName', 20],
    ['status', 'status', 8],
    ['requestedBy', 'requestedByName', 10],
    ['requestedAt', 'requestedByName', 18],
    ['decidedBy', 'decidedByName', 10],
    ['decidedAt', 'decidedByName', 18],
    ['decisionNote', 'decidedByName', 30],
  ];
  const body = rows.map((r) => [
    r.academicYear,
    r.name,
    r.regNo,
    t(`physique:gender.${r.gender}`),
    grade(t, r.gradeNo),
    r.className,
    t(`exemptions:kind.${r.kind}`),
    r.reason,
    r.certificateName ?? '',
    t(`exemptions:status.${r.status}`),
    r.requestedByName ?? '',
    instant(r.requestedAt),
    r.decidedByName ?? '',
    instant(r.decidedAt),
    r.decisionNote ?? '',
  ]);
  const name = t('exemptions:exportName');
  return { sheet: { name, columns: columns.map(([key, list, width, text]) => ({ header: t(`exemptions:column.${key}`), list, width, text })), rows: body }, fileName: `${name}.xlsx` };
}

/** 《免予执行〈国家学生体质健康标准〉申请表》 of one request, in the caller's language. */
export async function exemptionForm(db: DbOrTx, actor: Actor, id: string, t: TFunction): Promise<{ body: Buffer; fileName: string; contentType: string }> {
  const r = await exemptionById(db, actor, id);
  const [extra] = await db
    .select({ school: orgs.name, birthDate: students.birthDate })
    .from(students)
    .innerJoin(orgs, eq(orgs.id, students.orgId))
    .where(and(eq(students.id, r.studentId), eq(students.orgId, actor.tenantOrgId)));
  const f = (k: string, o?: Record<string, unknown>) => t(`exemptions:form.${k}`, o ?? {});
  const decision =
    r.status === 'pending'
      ? f('undecided')
      : `${t(`exemptions:status.${r.status}`)}${r.decisionNote ? `：${r.decisionNote}` : ''}\n${f('decidedBy', { name: r.decidedByName ?? '', at: instant(r.decidedAt) })}`;
  // pdf-lib and its fonts load with the first form, not at start (docs/performance.md, server start).
  const { exemptionFormPdf } = await import('./exemption-form-pdf');
  const pdf = await exemptionFormPdf({
    title: f('title'),
    school: `${f('school')}：${extra?.school ?? ''}`,
    rows: [
      [
        { label: f('name'), value: r.name },
        { label: f('gender'), value: t(`physique:gender.${r.gender}`) },
      ],
      [
        { label: f('regNo'), value: r.regNo },
        { label: f('birthDate'), value: extra?.birthDate ?? '' },
      ],
      [
        { label: f('class'), value: r.className },
        { label: f('schoolYear'), value: r.academicYear },
      ],
      [
        { label: f('kind'), value: t(`exemptions:kindLong.${r.kind}`) },
        { label: f('requestedAt'), value: instant(r.requestedAt) },
      ],
      [{ label: f('requestedBy'), value: `${r.requestedByName ?? ''}（${t(`exemptions:via.${r.requestedVia}`)}）` }],
    ],
    boxes: [
      { label: f('reason'), value: r.reason },
      { label: f('certificate'), value: r.certificateName ? f('certificateAttached', { name: r.certificateName }) : f('certificateMissing') },
      { label: f('decision'), value: decision },
    ],
    signatures: [f('signStudent'), f('signParent'), f('signTeacher'), f('signSchool')],
    dateLabel: f('date'),
    footer: f('footer'),
  });
  return { body: Buffer.from(pdf), fileName: `${f('title')}-${r.name}.pdf`, contentType: 'application/pdf' };
}
