import { z } from 'zod';
import { screenLinkCreateSchema, wallPlaylistSchema } from '../wall/wall';
import { RESULT_KINDS } from './marks';

/**
 * The live board of a meet (score/screen/:meetId, and a board link's wall): latest published results, upcoming heats,
 * the class points and new records (docs/product-rules.md#meets).
 */
export interface MeetBoardView {
  name: string;
  startDate: string;
  latest: { heatId: string; eventName: string; groupName: string; round: number; no: number; results: { place: number | null; mark: string; name: string; className: string; newRecord: boolean }[] }[];
  upcoming: { id: string; eventName: string; groupName: string; round: number; no: number; day: number | null; startMin: number | null }[];
  classes: { id: string; name: string; points: number; rank: number }[];
  records: { id: string; eventName: string; groupName: string; holder: string; className: string | null; mark: string; state: string }[];
}

/** POST …/sportsMeet/:id/boardLinks: a wall link showing the meet's board; the name follows the screen links' rule. */
export const boardLinkCreateSchema = screenLinkCreateSchema.pick({ name: true });
export type BoardLinkCreate = z.output<typeof boardLinkCreateSchema>;

const heatHead = { eventName: z.string(), groupName: z.string(), round: z.number().int(), no: z.number().int() };

/** GET …/:id/board: the live board (MeetBoardView), the same a board link's wall shows. */
export const meetBoardViewSchema = z.object({
  name: z.string(),
  startDate: z.string(),
  latest: z
    .array(
      z.object({
        heatId: z.string(),
        ...heatHead,
        kind: z.enum(RESULT_KINDS),
        publishedAt: z.string(),
        results: z.array(z.object({ heatId: z.string(), place: z.number().int().nullable(), mark: z.string(), name: z.string(), className: z.string(), newRecord: z.boolean() })),
      }),
    )
    .describe('The last four heats published, best places first'),
  upcoming: z.array(z.object({ id: z.string(), ...heatHead, day: z.number().int().nullable(), startMin: z.number().int().nullable() })),
  classes: z.array(z.object({ id: z.string(), name: z.string(), points: z.number(), rank: z.number().int() })),
  records: z.array(
    z.object({ id: z.string(), eventName: z.string(), groupName: z.string(), holder: z.string(), className: z.string().nullable(), mark: z.string(), kind: z.enum(RESULT_KINDS), state: z.string() }),
  ),
});

/** A meet's board link (a wall link: ScreenLinkRow). */
export const boardLinkRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  name: z.string(),
  playlist: wallPlaylistSchema,
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  meetId: z.string().nullable(),
  expiresAt: z.string().nullable().describe('After it the wall is refused; null until revoked'),
});

export const boardLinkListSchema = z.array(boardLinkRowSchema);

/** POST …/:id/boardLinks: the link with its secret token and wall path, shown this once. */
export const boardLinkCreatedSchema = boardLinkRowSchema.extend({ token: z.string(), path: z.string().describe('/busi/wall/<token>') });
