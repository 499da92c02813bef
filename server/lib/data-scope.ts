import { and, eq, inArray, or, SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { classes, teacherClasses, teachers } from '../db/schema/school';
import type { Actor } from '../plugins/tenant';

/**
 * The classes whose people and results an actor may see (docs/product-rules.md#data-scopes). A role scoped to
 * 'classes' sees the classes its holder teaches (teacher_classes) or heads / teaches PE in (classes.head_teacher_id,
 * pe_teacher_id); 'grades' widens that to every class of those classes' grades; 'org' is the whole organisation.
 * Resolved per request (taught classes change without a sign-in), one small indexed query.
 */
export type ClassScope = { all: true } | { all: false; classIds: readonly string[] };

/** No limit: the whole organisation (an 'org' role, or a reader that is not a person, like the wall display). */
export const WHOLE_ORG: ClassScope = { all: true };

/** The class ids a scope is limited to, or undefined when it is not limited. */
export const scopedClassIds = (scope: ClassScope): readonly string[] | undefined => (scope.all ? undefined : scope.classIds);

/** The tables `classScopeOf` reads: a cached answer filtered by a data scope depends on them (server/plugins/read-cache.ts). */
export const CLASS_SCOPE_TABLES = [teachers, teacherClasses, classes] as const;

export async function classScopeOf(db: DbOrTx, actor: Actor): Promise<ClassScope> {
  if (actor.dataScope === 'org') return WHOLE_ORG;
  const mine = db
    .select({ id: teachers.id })
    .from(teachers)
    .where(and(eq(teachers.orgId, actor.tenantOrgId), eq(teachers.userId, actor.userId)));
  const own = await db
    .select({ id: classes.id, gradeId: classes.gradeId })
    .from(classes)
    .where(
      and(
        eq(classes.orgId, actor.tenantOrgId),
        or(
          inArray(classes.headTeacherId, mine),
          inArray(classes.peTeacherId, mine),
          inArray(classes.id, db.select({ id: teacherClasses.classId }).from(teacherClasses).where(inArray(teacherClasses.teacherId, mine))),
        ),
      ),
    );
  if (actor.dataScope === 'classes' || own.length === 0) return { all: false, classIds: own.map((c) => c.id) };
  const gradeIds = [...new Set(own.map((c) => c.gradeId))];
  const wide = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, actor.tenantOrgId), inArray(classes.gradeId, gradeIds)));
  return { all: false, classIds: wide.map((c) => c.id) };
}

/** A membership test for rows already in memory (imports, syncs): one Set, built once per call. */
export function classScopeTest(scope: ClassScope): (classId: string) => boolean {
  if (scope.all) return () => true;
  const ids = new Set(scope.classIds);
  return (classId) => ids.has(classId);
}

/**
 * The WHERE condition limiting `classColumn` (a column, or a raw expression such as `hc.class_id`) to the scope
 * (undefined = no limit; an empty scope matches nothing).
 */
export function inClassScope(scope: ClassScope, classColumn: AnyPgColumn | SQL): SQL | undefined {
  if (scope.all) return undefined;
  if (scope.classIds.length === 0) return sql`false`;
  const ids = [...scope.classIds];
  return classColumn instanceof SQL ? inArray(classColumn, ids) : inArray(classColumn, ids);
}
