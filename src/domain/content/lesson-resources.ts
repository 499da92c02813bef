import { z } from 'zod';
import { nullableId, optionalText, uuid } from '../fields';
import { idFilter, intFilter, listQuery, textFilter, versionField } from '../list-query';

/**
 * Lesson resources (docs/product-rules.md#lesson-resources): a school's own resources (title, grade, topic, a 4:3
 * cover under 5 MB, an mp4 lesson video under 500 MB sent resumably, attachments under 50 MB each, a description),
 * and the resource library: the resources of a management organisation, which every school below it browses and
 * copies into its own list.
 */

/** K12 grades a resource is for (1–12, named like the physique grades). */
export const LESSON_GRADES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
export const LESSON_TITLE_MAX = 50;
export const LESSON_TOPIC_MAX = 30;
export const LESSON_DESCRIPTION_MAX = 500;
export const LESSON_ATTACHMENTS_MAX = 10;


export const lessonResourceSaveSchema = z.object({
  title: z
    .string({ error: 'content:validation.lesson.titleRequired' })
    .trim()
    .min(1, 'content:validation.lesson.titleRequired')
    .max(LESSON_TITLE_MAX, 'content:validation.lesson.titleLength'),
  grade: z.coerce
    .number({ error: 'content:validation.lesson.gradeRequired' })
    .int('content:validation.lesson.gradeRequired')
    .min(1, 'content:validation.lesson.gradeRequired')
    .max(12, 'content:validation.lesson.gradeRequired'),
  topic: z
    .string({ error: 'content:validation.lesson.topicRequired' })
    .trim()
    .min(1, 'content:validation.lesson.topicRequired')
    .max(LESSON_TOPIC_MAX, 'content:validation.lesson.topicLength'),
  coverFileId: nullableId(),
  videoFileId: nullableId(),
  attachmentFileIds: z.array(uuid()).max(LESSON_ATTACHMENTS_MAX, 'content:validation.lesson.attachmentsMax').default([]),
  description: optionalText(LESSON_DESCRIPTION_MAX, 'content:validation.lesson.descriptionLength'),
  version: versionField.optional(),
});
export type LessonResourceSave = z.output<typeof lessonResourceSaveSchema>;
export type LessonResourceForm = z.input<typeof lessonResourceSaveSchema>;

export const lessonResourceListQuery = listQuery({ title: textFilter(), grade: intFilter, topic: textFilter() });
export type LessonResourceListQuery = z.output<typeof lessonResourceListQuery>;

/** The library a school browses: the resources of the management organisations above it. */
export const libraryListQuery = listQuery({ title: textFilter(), grade: intFilter, orgId: idFilter });
export type LibraryListQuery = z.output<typeof libraryListQuery>;

export interface LessonResourceRow {
  id: string;
  title: string;
  grade: number;
  topic: string;
  coverFileId: string | null;
  videoFileId: string | null;
  attachmentFileIds: string[];
  description: string | null;
  /** The library resource this one was copied from, when it was. */
  copiedFromId: string | null;
  updatedAt: string;
  version: number;
}

/** A resource of the library as a school sees it. */
export interface LibraryRow {
  id: string;
  title: string;
  grade: number;
  topic: string;
  description: string | null;
  hasCover: boolean;
  hasVideo: boolean;
  attachmentCount: number;
  /** The management organisation that published it. */
  orgName: string;
  /** The school's own copy, when it made one. */
  copyId: string | null;
  updatedAt: string;
}

/** A lesson resource (LessonResourceRow; the OpenAPI document's schema). */
export const lessonResourceRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  grade: z.number().int(),
  topic: z.string(),
  coverFileId: z.string().nullable(),
  videoFileId: z.string().nullable(),
  attachmentFileIds: z.array(z.string()),
  description: z.string().nullable(),
  copiedFromId: z.string().nullable().describe('The library resource it was copied from'),
  updatedAt: z.string(),
  version: z.number().int(),
});

/** A library resource as a school sees it (LibraryRow). */
export const libraryRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  grade: z.number().int(),
  topic: z.string(),
  description: z.string().nullable(),
  hasCover: z.boolean(),
  hasVideo: z.boolean(),
  attachmentCount: z.number().int(),
  orgName: z.string().describe('The management organisation that published it'),
  copyId: z.string().nullable().describe("The school's own copy, when it made one"),
  updatedAt: z.string(),
});
