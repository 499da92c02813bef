import { and, asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { departmentMembers, departments } from '../../../server/db/schema/departments';
import { orgs } from '../../../server/db/schema/orgs';
import { memberships, membershipRoles, menus, roleMenus, roles, users } from '../../../server/db/schema/auth';
import { classes, grades, parents, parentStudents, schoolYears, semesters, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../../../server/seed/demo';
import { idCheckChar } from '../../../server/seed/people';
import { sha256Hex, verifyPassword } from '../../../server/lib/password';
import { CATALOG } from '../../../src/domain/menus/catalog';
import { toMenuEntries } from '../../../src/domain/menus/menu-entries';
import { testDb } from '../../support/server-db';
import type { Family } from '@/domain/menus/access';

const MOBILE = /^1[3-9]\d{9}$/;
// The demo's "today" (server/seed/demo.ts).
const TODAY = new Date('2026-11-23T00:00:00Z');

function ageOn(birthDate: string, day: Date): number {
  const b = new Date(`${birthDate}T00:00:00Z`);
  let age = day.getUTCFullYear() - b.getUTCFullYear();
  if (day.getUTCMonth() < b.getUTCMonth() || (day.getUTCMonth() === b.getUTCMonth() && day.getUTCDate() < b.getUTCDate())) age--;
  return age;
}

let h: DbHandle;
let orgByType: Map<number, typeof orgs.$inferSelect>;

beforeAll(async () => {
  h = await testDb();
  const all = await h.db.select().from(orgs);
  // The first organisation of each type (the second K12 school joined later).
  orgByType = new Map();
  for (const o of all) if (!orgByType.has(o.type)) orgByType.set(o.type, o);
});
afterAll(async () => {
  await h?.close();
});

const org = (type: number) => {
  const o = orgByType.get(type);
  if (!o) throw new Error(`no org of type ${type}`);
  return o;
};

async function studentCount(orgId: string): Promise<number> {
  const [{ n }] = await h.db.select({ n: count() }).from(students).where(eq(students.orgId, orgId));
  return n;
}

describe('demo seed: organisations and school structure', () => {
  it('has a management organisation above a K12 school and a university, with branding', async () => {
    expect(orgByType.size).toBe(3);
    const bureau = org(10);
    expect(bureau.parentId).toBeNull();
    expect(org(21).parentId).toBe(bureau.id);
    expect(org(22).parentId).toBe(bureau.id);
    expect(bureau.title).toBeTruthy();
    expect(bureau.filingNumber).toMatch(/ICP备\d+号/);
    expect(bureau.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(bureau.loginImg).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(org(21).academicSystemYears).toBe(12);
    expect(org(22).academicSystemYears).toBe(4);
  });

  it('has a second, small K12 school under the district with its administrator, six classes and no tests yet', async () => {
    const [second] = await h.db.select().from(orgs).where(eq(orgs.name, '南京市江宁区东山小学'));
    expect(second).toMatchObject({ parentId: org(10).id, type: 21, code: '03' });
    expect(await h.db.$count(classes, eq(classes.orgId, second.id))).toBe(6);
    expect(await studentCount(second.id)).toBeGreaterThan(150);
    const [admin] = await h.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school02'));
    expect(admin).toBeDefined();
  });

  it('gives the district a department tree with members', async () => {
    const rows = await h.db.select().from(departments).where(eq(departments.orgId, org(10).id));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.some((d) => d.parentId !== null)).toBe(true);
    expect(await h.db.$count(departmentMembers)).toBeGreaterThan(0);
  });

  it('gives each organisation three school years with spring and autumn semesters; 2026-2027 autumn is current', async () => {
    for (const o of orgByType.values()) {
      const years = await h.db.select().from(schoolYears).where(eq(schoolYears.orgId, o.id)).orderBy(asc(schoolYears.startYear));
      expect(years.map((y) => y.academicYear)).toEqual(['2024-2025', '2025-2026', '2026-2027']);
      expect(years.filter((y) => y.current).map((y) => y.academicYear)).toEqual(['2026-2027']);
      const sems = await h.db.select().from(semesters).where(eq(semesters.orgId, o.id));
      expect(sems).toHaveLength(6);
      expect(new Set(sems.map((s) => s.code))).toEqual(new Set([11, 13]));
      const current = sems.filter((s) => s.current);
      expect(current).toHaveLength(1);
      expect(current[0].code).toBe(13);
      expect(current[0].startDate <= '2026-11-23' && current[0].endDate >= '2026-11-23').toBe(true);
      for (const s of sems) expect(s.breakStart! > s.endDate && s.breakEnd! > s.breakStart!).toBe(true);
    }
  });

  it('K12: grades 1–12 in three stages, 4 classes each, about 40 students per class', async () => {
    const k12 = org(21);
    const gs = await h.db.select().from(grades).where(eq(grades.orgId, k12.id)).orderBy(asc(grades.gradeNo));
    expect(gs.map((g) => g.gradeNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(gs.map((g) => g.stage)).toEqual([...Array(6).fill('primary'), ...Array(3).fill('junior'), ...Array(3).fill('senior')]);
    const cs = await h.db
      .select({ id: classes.id, name: classes.name, size: classes.size, n: count(students.id) })
      .from(classes)
      .leftJoin(students, eq(students.classId, classes.id))
      .where(eq(classes.orgId, k12.id))
      .groupBy(classes.id);
    expect(cs).toHaveLength(48);
    expect(cs.map((c) => c.name)).toContain('一年级1班');
    for (const c of cs) {
      expect(c.n).toBe(c.size);
      expect(c.n).toBeGreaterThanOrEqual(35);
      expect(c.n).toBeLessThanOrEqual(45);
    }
    const total = await studentCount(k12.id);
    expect(total).toBeGreaterThan(1800);
    expect(total).toBeLessThan(2050);
  });

  it('university: 2 colleges, 4 majors of 4 years, classes for grades 13–16, about 2,000 students', async () => {
    const uni = org(22);
    const gs = await h.db.select().from(grades).where(eq(grades.orgId, uni.id)).orderBy(asc(grades.gradeNo));
    expect(gs.map((g) => g.gradeNo)).toEqual([13, 14, 15, 16]);
    const perMajor = await h.db
      .select({ majorId: classes.majorId, collegeId: classes.collegeId, n: count() })
      .from(classes)
      .where(eq(classes.orgId, uni.id))
      .groupBy(classes.majorId, classes.collegeId);
    expect(perMajor).toHaveLength(4);
    expect(new Set(perMajor.map((m) => m.collegeId)).size).toBe(2);
    const total = await studentCount(uni.id);
    expect(total).toBeGreaterThan(1850);
    expect(total).toBeLessThan(2150);
  });
});

describe('demo seed: students', () => {
  it('have registration numbers G + 18 ID digits with a valid check digit, unique per organisation, and unique student numbers', async () => {
    const rows = await h.db.select({ orgId: students.orgId, regNo: students.regNo, studentNo: students.studentNo, birthDate: students.birthDate, gender: students.gender }).from(students);
    const seen = new Set<string>();
    const numbers = new Set<string>();
    for (const r of rows) {
      expect(r.regNo).toMatch(/^G\d{18}$/);
      const id = r.regNo.slice(1);
      expect(idCheckChar(id.slice(0, 17))).toBe(id[17]);
      expect(id.slice(6, 14)).toBe(r.birthDate!.replaceAll('-', ''));
      expect(Number(id[16]) % 2).toBe(r.gender === 'male' ? 1 : 0);
      seen.add(`${r.orgId}|${r.regNo}`);
      numbers.add(`${r.orgId}|${r.studentNo}`);
    }
    expect(seen.size).toBe(rows.length);
    expect(numbers.size).toBe(rows.length);
  });

  it('have realistic Chinese names, unique within a class, about half boys, mostly ethnicity 01', async () => {
    const rows = await h.db.select({ classId: students.classId, name: students.name, gender: students.gender, ethnicity: students.ethnicity }).from(students);
    const perClass = new Map<string, Set<string>>();
    for (const r of rows) {
      expect(r.name).toMatch(/^[\u4e00-\u9fff]{2,4}$/);
      const set = perClass.get(r.classId) ?? new Set();
      expect(set.has(r.name)).toBe(false);
      set.add(r.name);
      perClass.set(r.classId, set);
    }
    const boys = rows.filter((r) => r.gender === 'male').length / rows.length;
    expect(boys).toBeGreaterThan(0.45);
    expect(boys).toBeLessThan(0.57);
    const han = rows.filter((r) => r.ethnicity === '01').length / rows.length;
    expect(han).toBeGreaterThan(0.9);
    expect(han).toBeLessThan(1);
  });

  it('are as old as their grade (grade 1 ≈ 6–7, university year 1 ≈ 18)', async () => {
    const rows = await h.db
      .select({ gradeNo: grades.gradeNo, birthDate: students.birthDate })
      .from(students)
      .innerJoin(classes, eq(students.classId, classes.id))
      .innerJoin(grades, eq(classes.gradeId, grades.id));
    for (const r of rows) {
      const age = ageOn(r.birthDate!, TODAY);
      expect(age - r.gradeNo).toBeGreaterThanOrEqual(5);
      expect(age - r.gradeNo).toBeLessThanOrEqual(7);
    }
    const grade1 = rows.filter((r) => r.gradeNo === 1).map((r) => ageOn(r.birthDate!, TODAY));
    expect(Math.min(...grade1)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...grade1)).toBeLessThanOrEqual(8);
  });

  it('some K12 students have a parent with a valid mobile', async () => {
    const rows = await h.db.select({ mobile: parents.mobile, relation: parentStudents.relation }).from(parents).innerJoin(parentStudents, eq(parentStudents.parentId, parents.id));
    expect(rows.length).toBeGreaterThan(200);
    for (const r of rows) {
      expect(r.mobile).toMatch(MOBILE);
      expect(['father', 'mother']).toContain(r.relation);
    }
  });
});

describe('demo seed: menus, roles and accounts', () => {
  it('stores every catalogue menu entry', async () => {
    const [{ n }] = await h.db.select({ n: count() }).from(menus);
    expect(n).toBe(toMenuEntries(CATALOG).length);
  });

  it('gives each organisation a built-in 管理员 role with menus, and the schools a 体育教师 role', async () => {
    const rows = await h.db
      .select({ orgType: orgs.type, name: roles.name, identity: roles.identity, builtin: roles.builtin, menus: count(roleMenus.menuId) })
      .from(roles)
      .innerJoin(orgs, eq(orgs.id, roles.orgId))
      .leftJoin(roleMenus, eq(roleMenus.roleId, roles.id))
      .groupBy(orgs.type, roles.id);
    const key = (r: (typeof rows)[number]) => `${r.orgType}:${r.name}:${r.identity}:${r.builtin}`;
    expect(rows.map(key).sort()).toEqual([
      '10:体育教研员:teacher:false',
      '10:管理员:administrator:true',
      '21:体育教师:teacher:false',
      '21:体育教师:teacher:false',
      '21:数据查看员:teacher:false',
      '21:本班体育教师:teacher:false',
      '21:班级管理员:teacher:false',
      '21:管理员:administrator:true',
      '21:管理员:administrator:true',
      '22:体育教师:teacher:false',
      '22:管理员:administrator:true',
    ]);
    // The school's own narrow roles (班级管理员, 数据查看员) hold a few menus; the template roles many.
    for (const r of rows) expect(r.menus).toBeGreaterThan(r.name === '管理员' || r.name === '体育教师' ? 10 : 1);
    // (the district's 体育教研员 reads two screens)
    for (const type of [21, 22]) {
      const admin = rows.find((r) => r.orgType === type && r.identity === 'administrator')!;
      const teacher = rows.find((r) => r.orgType === type && r.identity === 'teacher')!;
      expect(admin.menus).toBeGreaterThan(teacher.menus);
    }
  });

  it('admin roles hold every page of their family, the personal centre and the shared screens', async () => {
    const pairs: [number, Family][] = [[10, 'admin'], [21, 'k12'], [22, 'gx']];
    for (const [type, family] of pairs) {
      const held = await h.db
        .select({ family: menus.family, menuType: menus.menuType })
        .from(roleMenus)
        .innerJoin(roles, eq(roles.id, roleMenus.roleId))
        .innerJoin(menus, eq(menus.menuId, roleMenus.menuId))
        .where(and(eq(roles.orgId, org(type).id), eq(roles.identity, 'administrator')));
      const [{ n: familyMenus }] = await h.db.select({ n: count() }).from(menus).where(eq(menus.family, family));
      expect(held.filter((m) => m.family === family)).toHaveLength(familyMenus);
      expect(held.some((m) => m.family === 'personal')).toBe(true);
      expect(held.some((m) => m.family === 'single')).toBe(true);
      expect(held.some((m) => m.menuType === '1')).toBe(true);
    }
  });

  it('has every demo account with the demo password and a valid unique mobile', async () => {
    const all = await h.db.select().from(users);
    expect(new Set(all.map((u) => u.mobile)).size).toBe(all.length);
    for (const u of all) expect(u.mobile).toMatch(MOBILE);
    for (const a of DEMO_ACCOUNTS) {
      const u = all.find((x) => x.accountNum === a.account);
      expect(u, a.account).toBeDefined();
      expect(a.password).toBe(DEMO_PASSWORD);
      expect(u!.accountNum).toMatch(/^[A-Za-z0-9]{6,20}$/);
    }
    const district = all.find((u) => u.accountNum === 'district01')!;
    expect(await verifyPassword(sha256Hex(DEMO_PASSWORD), district.passwordHash)).toBe(true);
    expect(await verifyPassword(sha256Hex('wrong-password'), district.passwordHash)).toBe(false);
  });

  async function accountsOf(account: string) {
    const rows = await h.db
      .select({
        orgType: orgs.type,
        tenantOrgId: memberships.tenantOrgId,
        orgId: memberships.orgId,
        present: memberships.present,
        role: roles.name,
        identity: roles.identity,
        rolePresent: membershipRoles.present,
        roleOrgId: roles.orgId,
      })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .innerJoin(orgs, eq(orgs.id, memberships.orgId))
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .innerJoin(roles, eq(roles.id, membershipRoles.roleId))
      .where(eq(users.accountNum, account));
    for (const r of rows) expect(r.roleOrgId).toBe(r.tenantOrgId);
    return rows.map((r) => `${r.orgType}:${r.present ? 'present' : '-'}:${r.role}:${r.rolePresent ? 'present' : '-'}`).sort();
  }

  it('links each demo account to its organisation and role', async () => {
    expect(await accountsOf('district01')).toEqual(['10:present:管理员:present']);
    expect(await accountsOf('school01')).toEqual(['21:present:管理员:present']);
    expect(await accountsOf('teacher01')).toEqual(['21:present:体育教师:present']);
    expect(await accountsOf('college01')).toEqual(['22:present:管理员:present']);
  });

  it('multi0001 has two schools and two roles; its K12 account with the teacher role is in use', async () => {
    expect(await accountsOf('multi0001')).toEqual(['21:present:体育教师:present', '21:present:管理员:-', '22:-:体育教师:present']);
  });

  it('teacher01 is a PE teacher with taught classes; each school has a few more teachers', async () => {
    const taught = await h.db
      .select({ n: count() })
      .from(teachers)
      .innerJoin(users, eq(users.id, teachers.userId))
      .innerJoin(teacherClasses, eq(teacherClasses.teacherId, teachers.id))
      .where(eq(users.accountNum, 'teacher01'));
    expect(taught[0].n).toBeGreaterThan(0);
    const perOrg = await h.db.select({ orgId: teachers.orgId, n: count() }).from(teachers).groupBy(teachers.orgId);
    for (const type of [21, 22]) expect(perOrg.find((r) => r.orgId === org(type).id)?.n).toBeGreaterThanOrEqual(4);
  });
});

describe('seedDemo', () => {
  it('does nothing on a database that already has organisations', async () => {
    const before = await h.db.execute<{ s: number; u: number; m: number }>(
      sql`select (select count(*) from students)::int as s, (select count(*) from users)::int as u, (select count(*) from menus)::int as m`,
    );
    expect(await seedDemo(h.db)).toBe(false);
    const after = await h.db.execute<{ s: number; u: number; m: number }>(
      sql`select (select count(*) from students)::int as s, (select count(*) from users)::int as u, (select count(*) from menus)::int as m`,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('seeds an empty database once, deterministically; contests and homework run around the day it is seeded', async () => {
    const empty = await testDb({ seeded: false });
    try {
      // A day long after the physique data's DEMO_TODAY: the live activities still run on it (docs/product-rules.md#activities).
      const now = new Date('2027-03-10T04:00:00Z');
      expect(await seedDemo(empty.db, { now })).toBe(true);
      expect(await seedDemo(empty.db)).toBe(false);
      const running = await empty.db.execute<{ name: string }>(
        sql`select name from contests where start_date <= '2027-03-10' and end_date >= '2027-03-10' and ended_at is null
            union all select name from homeworks where start_date <= '2027-03-10' and end_date >= '2027-03-10' and ended_at is null
            union all select name from training_plans where start_date <= '2027-03-10' and end_date >= '2027-03-10' and ended_at is null order by name`,
      );
      expect(running.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['冬季跳绳排名赛', '立定跳远闯关赛', '每日跳绳打卡', '跳绳不及格专项训练']));
      // The training plan has its students' sessions of the days before.
      const [{ sessions }] = (
        await empty.db.execute<{ sessions: number }>(
          sql`select count(*)::int as sessions from activity_records a join training_plans p on p.id = a.ref_id where a.kind = 'training' and a.measured_at < '2027-03-10T04:00:00Z'`,
        )
      ).rows;
      expect(sessions).toBeGreaterThan(0);
      // Same seed, same rows: ids and names match the run's prepared database.
      const pick = (db: DbHandle) => db.db.select({ id: students.id, name: students.name, regNo: students.regNo }).from(students).orderBy(asc(students.id)).limit(50);
      expect(await pick(empty)).toEqual(await pick(h));
      const [{ n }] = await empty.db.select({ n: count() }).from(orgs);
      expect(n).toBe(4);
    } finally {
      await empty.close();
    }
  });
});
