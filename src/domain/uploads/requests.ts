import { z } from 'zod';
import '../fields';
import { FILE_PURPOSES } from './rules';

/** A resumable upload's id: 32 hex digits (a uuid without its dashes, as the file store issues them). */
export const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

/** `:uploadId` of the tus routes (the console's file store and the app's videos). */
export const uploadParamsSchema = z.object({ uploadId: z.string().regex(UPLOAD_ID_PATTERN) });

/** `?purpose=` of an upload: what the file is for decides its type and size rules. */
export const uploadQuerySchema = z.object({ purpose: z.enum(FILE_PURPOSES) });
