/**
 * Academic years '2025-2026' around a date, newest first: the year filter of lists that span several
 * schools (admin family), where no single school's year list applies. A year starts in September.
 */
export function recentAcademicYears(now: Date, count = 6): string[] {
  const start = now.getMonth() >= 8 ? now.getFullYear() : now.getFullYear() - 1;
  return Array.from({ length: count }, (_, i) => `${start - i}-${start - i + 1}`);
}
