import { z } from 'zod';
import { uuid as idField } from '../fields';

/**
 * Batch face photos (docs/product-rules.md#face-photos): files named after the person are matched by name — staff by
 * mobile, name or work number, students by registration number (学籍号) or name — and applied only after the person
 * who uploads has seen the matches and confirmed replacing photos people already have.
 */

/** Whose photos a batch holds. */
export const FACE_PHOTO_KINDS = ['staff', 'student'] as const;
export type FacePhotoKind = (typeof FACE_PHOTO_KINDS)[number];

/** Most files one batch matches and applies ("several hundred at once"). */
export const FACE_PHOTO_BATCH_MAX = 1000;
/** Uploads the browser runs at once: enough to fill the line, few enough to leave the server room. */
export const FACE_PHOTO_UPLOAD_CONCURRENCY = 4;
/** Candidates listed for an ambiguous file. */
export const FACE_PHOTO_CANDIDATES_MAX = 5;
const FILE_NAME_MAX = 255;

/** A value compared for matching: full-width characters folded, spaces trimmed, letters in upper case. */
export const facePhotoKeyOf = (value: string): string => value.normalize('NFKC').trim().toUpperCase();

/** What a file name says once its folder and extension are gone ('照片/G3201.JPG' → 'G3201'). */
export function facePhotoKey(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return facePhotoKeyOf(dot > 0 ? base.slice(0, dot) : base);
}

export const facePhotoMatchSchema = z
  .object({ names: z.array(z.string().max(FILE_NAME_MAX)).min(1, 'people:photos.error.noFiles').max(FACE_PHOTO_BATCH_MAX, 'people:photos.error.tooMany') })
  .strict();
export type FacePhotoMatchRequest = z.output<typeof facePhotoMatchSchema>;

const uuid = idField();
export const facePhotoApplySchema = z
  .object({
    items: z
      .array(z.object({ personId: uuid, fileId: uuid, /** The person already has a photo and the uploader chose to replace it. */ replace: z.boolean().default(false) }).strict())
      .min(1, 'people:photos.error.noFiles')
      .max(FACE_PHOTO_BATCH_MAX, 'people:photos.error.tooMany')
      .refine((items) => new Set(items.map((i) => i.personId)).size === items.length, 'people:photos.error.personTwice'),
  })
  .strict();
export type FacePhotoApplyRequest = z.output<typeof facePhotoApplySchema>;

/** A person a file name can stand for. */
export const facePhotoPersonSchema = z.object({
  id: z.string(),
  name: z.string(),
  detail: z.string().nullable().describe('What tells two people of one name apart: the class of a student, the work number of a staff member'),
  photoFileId: z.string().nullable().describe('The photo the person has now, if any'),
});
export type FacePhotoPerson = z.output<typeof facePhotoPersonSchema>;

/** The values of a person a file name is compared with (mobile, name, work number; registration number, name). */
export interface FacePhotoCandidate extends FacePhotoPerson {
  keys: readonly (string | null)[];
}

export const facePhotoMatchResultSchema = z.object({
  matched: z.array(z.object({ file: z.string(), person: facePhotoPersonSchema })),
  ambiguous: z.array(
    z.object({
      file: z.string(),
      reason: z.enum(['people', 'files']).describe("'people': the name fits several people; 'files': several files fit one person"),
      candidates: z.array(facePhotoPersonSchema),
    }),
  ),
  unmatched: z.array(z.string()),
});
export type FacePhotoMatchResult = z.output<typeof facePhotoMatchResultSchema>;
export type FacePhotoMatched = FacePhotoMatchResult['matched'][number];
export type FacePhotoAmbiguous = FacePhotoMatchResult['ambiguous'][number];

const personOf = ({ keys: _keys, ...person }: FacePhotoCandidate): FacePhotoPerson => person;

/**
 * Matches file names to people: a name that fits exactly one person is matched; one that fits several is ambiguous
 * ('people'), and so are files that fit the same person ('files', e.g. 张三.jpg and 13800000000.jpg); the rest are
 * unmatched. `people` need only hold those whose keys may fit.
 */
export function matchFacePhotos(names: readonly string[], people: readonly FacePhotoCandidate[]): FacePhotoMatchResult {
  const byKey = new Map<string, FacePhotoCandidate[]>();
  for (const p of people) {
    for (const key of new Set(p.keys.filter((k) => k !== null).map(facePhotoKeyOf))) {
      if (!key) continue;
      const list = byKey.get(key);
      if (list) list.push(p);
      else byKey.set(key, [p]);
    }
  }
  const result: FacePhotoMatchResult = { matched: [], ambiguous: [], unmatched: [] };
  const single: { file: string; person: FacePhotoCandidate }[] = [];
  for (const file of names) {
    const fits = byKey.get(facePhotoKey(file)) ?? [];
    if (fits.length === 0) result.unmatched.push(file);
    else if (fits.length === 1) single.push({ file, person: fits[0] });
    else result.ambiguous.push({ file, reason: 'people', candidates: fits.slice(0, FACE_PHOTO_CANDIDATES_MAX).map(personOf) });
  }
  const filesOf = new Map<string, number>();
  for (const s of single) filesOf.set(s.person.id, (filesOf.get(s.person.id) ?? 0) + 1);
  for (const s of single) {
    if (filesOf.get(s.person.id) === 1) result.matched.push({ file: s.file, person: personOf(s.person) });
    else result.ambiguous.push({ file: s.file, reason: 'files', candidates: [personOf(s.person)] });
  }
  return result;
}

/** What applying a batch answers. */
export const facePhotoAppliedSchema = z.object({
  applied: z.number().int().describe('People whose photo was set'),
  replaced: z.number().int().describe('Of those, people whose earlier photo was replaced'),
});
export type FacePhotoApplied = z.output<typeof facePhotoAppliedSchema>;
