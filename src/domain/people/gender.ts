import { enumTable } from '../presentation';

/** A person's gender as the national standard and the rosters record it. */
export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];
export const GENDER_TABLE = enumTable(GENDERS, (g) => `people:students.genders.${g}`);
