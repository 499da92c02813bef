// Row shapes of the school core reads (classes, students, teachers, grades, school years), shared by server and browser.
import type { z } from 'zod';
import type { classDetailSchema, classFormOptionsSchema, classRowSchema } from './classes';
import type { gradeRowSchema } from './grades';
import type { schoolYearDetailSchema, schoolYearRowSchema, semesterRowSchema } from './school-years';

/** A row of the class list (its schema, for the API document: classRowSchema). */
export type ClassRow = z.output<typeof classRowSchema>;

/** A grade of the dictionary list (GET org/grade/list; its schema: gradeRowSchema). */
export type GradeRow = z.output<typeof gradeRowSchema>;

export type SemesterRow = z.output<typeof semesterRowSchema>;

/** A school year of the dictionary list (its schema: schoolYearRowSchema). */
export type SchoolYearRow = z.output<typeof schoolYearRowSchema>;

/** A school year as its management screen reads it (its schema: schoolYearDetailSchema). */
export type SchoolYearDetail = z.output<typeof schoolYearDetailSchema>;

/** A class as its management screen reads it (its schema: classDetailSchema). */
export type ClassDetail = z.output<typeof classDetailSchema>;

/** Choices of the class form (its schema: classFormOptionsSchema). */
export type ClassFormOptions = z.output<typeof classFormOptionsSchema>;
