import type { FilePurpose } from './rules';

/** A file in the file store, as the API answers it. */
export interface StoredFile {
  id: string;
  name: string;
  purpose: FilePurpose;
  /** Served content type (from the file's content, not its name). */
  mime: string;
  /** Bytes as stored (after compression). */
  size: number;
  width: number | null;
  height: number | null;
  hasThumbnail: boolean;
  /** Readable without sign-in through the public route. */
  isPublic: boolean;
  createdAt: string;
}

/** Where the file store answers (the user centre's object-storage prefix of the gateway). */
export const FILES_API = '/api/uc/oss/files';
/** Public files (login-screen banners and branding), no sign-in. */
export const PUBLIC_FILES_API = '/api/uc/oss/public/files';
/** The tus endpoint of resumable uploads. */
export const TUS_PATH = `${FILES_API}/tus`;

export const filePaths = {
  upload: FILES_API,
  meta: (id: string) => `${FILES_API}/${id}`,
  content: (id: string) => `${FILES_API}/${id}/content`,
  thumbnail: (id: string) => `${FILES_API}/${id}/thumbnail`,
  /** The file a finished resumable upload became. */
  uploadResult: (uploadId: string) => `${FILES_API}/uploads/${uploadId}`,
  publicContent: (id: string) => `${PUBLIC_FILES_API}/${id}/content`,
  publicThumbnail: (id: string) => `${PUBLIC_FILES_API}/${id}/thumbnail`,
} as const;
