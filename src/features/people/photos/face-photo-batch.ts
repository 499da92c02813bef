import type { FacePhotoApplyRequest, FacePhotoPerson } from '@/domain/people/face-photos';
import { checkFile, checkUpload } from '@/domain/uploads/rules';
import { SNIFF_BYTES, sniffFileType } from '@/domain/uploads/signatures';

/**
 * A file's type by name and by its first bytes, and its size, before anything is sent (docs/product-rules.md#uploads:
 * png/jpg/jpeg, face photos at most 10 MB); the file store checks again. Null or an i18n error key.
 */
export async function precheckFacePhoto(file: File): Promise<string | null> {
  const byName = checkUpload('facePhoto', file);
  if (byName) return byName;
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return checkFile('face', sniffFileType(head), file.size);
}

/**
 * Runs `work` over `items` with at most `limit` at once, in order of the list; `onSettled` after each one. Answers
 * each item's outcome in the list's order: one failure stops nothing.
 */
export async function runBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  onSettled?: () => void,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await work(items[i]) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
      onSettled?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** A matched file that reached the file store. */
export interface UploadedPhoto {
  file: string;
  person: FacePhotoPerson;
  fileId: string;
}

/**
 * What the confirm step sends: every uploaded photo of a person without one, and those of people who have one only
 * when the uploader chose to replace them.
 */
export function itemsToApply(uploaded: readonly UploadedPhoto[], replace: boolean): FacePhotoApplyRequest['items'] {
  return uploaded.filter((u) => replace || u.person.photoFileId === null).map((u) => ({ personId: u.person.id, fileId: u.fileId, replace }));
}
