import type { FacePhotoApplied, FacePhotoApplyRequest, FacePhotoMatchResult } from '@/domain/people/face-photos';
import { pageApi } from '@/domain/menus/access';
import { filePaths } from '@/domain/uploads/stored-file';
import { del, post } from '@/lib/api-client';

/** The batch face-photo calls of a staff or student page (server/modules/people/face-photos.routes.ts). */
const base = (pageKey: string) => `${pageApi(pageKey)}/facePhotos`;

/** File names → matched, ambiguous and unmatched; writes nothing. */
export const matchFacePhotos = (pageKey: string, names: readonly string[]) => post<FacePhotoMatchResult>(`${base(pageKey)}/match`, { names });

/** Sets the confirmed photos in one transaction. */
export const applyFacePhotos = (pageKey: string, items: FacePhotoApplyRequest['items']) => post<FacePhotoApplied>(`${base(pageKey)}/apply`, { items });

/** Removes uploaded photos nobody took (a cancelled batch); best effort, the file store keeps no harm either way. */
export function discardFacePhotos(fileIds: readonly string[]): void {
  for (const id of fileIds) void del(filePaths.meta(id)).catch(() => undefined);
}

/** The query-key prefix of a page's resource (src/lib/resource.ts), refreshed after a batch. */
export const resourceKey = (pageKey: string) => ['resource', pageApi(pageKey)] as const;
