import type { z } from 'zod';
import { screenLinkCreateSchema } from '../wall/wall';

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
