import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EntryReview, EntryRow, EntrySave, DrawRequest, TeamSave } from '@/domain/meets/entries';
import type { MeetBoardView } from '@/domain/meets/board';
import type { MeetDetail, MeetRow, MeetSave } from '@/domain/meets/meets';
import type { RecordRow, RecordSave } from '@/domain/meets/records';
import type { HeatResults, ResultRow, ResultStep } from '@/domain/meets/results';
import type { Conflict } from '@/domain/meets/schedule';
import { pageApi, type Family, type SchoolFamily } from '@/domain/menus/access';
import { del, get, post, put, type Params } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

/** Meets of the k12 and gx families (docs/product-rules.md#meets); the shared /single screens use the signed-in family's. */
export const meetFamily = (f: Family): SchoolFamily => (f === 'gx' ? 'gx' : 'k12');

const cache = new Map<string, Resource<MeetRow, MeetSave, MeetDetail>>();
export function meets(family: SchoolFamily): Resource<MeetRow, MeetSave, MeetDetail> {
  const key = `${family}.sportsMeet.manage`;
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<MeetRow, MeetSave, MeetDetail>({ base: pageApi(key) })));
  return r;
}

const recordCache = new Map<string, Resource<RecordRow, RecordSave>>();
/** Records of the organisation. */
export function records(family: SchoolFamily): Resource<RecordRow, RecordSave> {
  let r = recordCache.get(family);
  if (!r) recordCache.set(family, (r = createResource<RecordRow, RecordSave>({ base: `${pageApi(`${family}.sportsMeet.manage`)}/records` })));
  return r;
}

export interface MeetOptions {
  venues: { id: string; name: string; type: string }[];
  grades: { id: string; stage: string; gradeNo: number; enrolYear: number }[];
}
export function useMeetOptions(family: SchoolFamily) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<MeetOptions>(`${api.base}/options`) });
}

export interface ArrangedAthlete {
  id: string;
  heatId: string;
  lane: number;
  name: string;
  className: string;
  classId: string;
  bib: string;
  /** A relay team's runners (leg 1..n) and reserves (leg null); empty for an athlete. */
  members: { name: string; leg: number | null }[];
}
export interface ArrangedHeat {
  id: string;
  eventId: string;
  eventName: string;
  groupName: string;
  type: string;
  round: number;
  no: number;
  day: number | null;
  startMin: number | null;
  endMin: number | null;
  venueId: string | null;
  athletes: ArrangedAthlete[];
}
export interface Arrangement {
  arrangeState: MeetRow['arrangeState'];
  drawSeed: number | null;
  drawMode: string | null;
  days: string[];
  heats: ArrangedHeat[];
  conflicts: Conflict[];
}

export interface PointsView {
  classes: { id: string; name: string; points: number; rank: number }[];
  grades: { id: string; points: number; rank: number; grade: { stage: string; gradeNo: number } | null }[];
  athletes: { id: string; name: string; points: number; rank: number }[];
  lines: { eventName: string; groupName: string; name: string; classId: string; className: string; place: number; mark: string; points: number; newRecord: boolean }[];
}

/** The live board (the same answer a board link's wall gets). */
export type BoardView = MeetBoardView;

/** The calls of one meet beyond its resource: sign-up, arrangement, results, points, board. */
export function useMeetCalls(family: SchoolFamily, meetId: string) {
  const api = meets(family);
  const base = `${api.base}/${meetId}`;
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: api.key });
  const write = <A, R>(fn: (a: A) => Promise<R>) => useMutation({ mutationFn: fn, onSuccess: refresh });
  return {
    base,
    key: [...api.key, 'meet', meetId] as const,
    addEntries: write((body: EntrySave) => post<{ bib: string }>(`${base}/entries`, body)),
    addTeam: write((body: TeamSave) => post<{ id: string; bib: string }>(`${base}/teams`, body)),
    updateTeam: write(({ id, body }: { id: string; body: TeamSave }) => put<null>(`${base}/teams/${id}`, body)),
    removeEntry: write((id: string) => del<null>(`${base}/entries/${id}`)),
    review: write((body: EntryReview) => post<null>(`${base}/entries/review`, body)),
    draw: write((body: Partial<DrawRequest>) => post<{ drawSeed: number }>(`${base}/draw`, body)),
    clear: write((eventIds?: string[]) => post<null>(`${base}/arrangement/clear`, { eventIds })),
    moveLane: write(({ resultId, heatId, lane }: { resultId: string; heatId: string; lane: number }) => put<null>(`${base}/lanes/${resultId}`, { heatId, lane })),
    schedule: write((confirm: boolean) => post<null>(`${base}/schedule`, { confirm })),
    enter: write(({ heatId, body }: { heatId: string; body: HeatResults }) => put<null>(`${base}/heats/${heatId}/results`, body)),
    step: write((body: ResultStep) => post<null>(`${base}/results/step`, body)),
    end: write(() => post<null>(`${base}/end`)),
  };
}

export function useEntries(family: SchoolFamily, meetId: string, query: Params) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'meet', meetId, 'entries', query], queryFn: () => get<{ records: EntryRow[]; total: number; current: number; size: number }>(`${api.base}/${meetId}/entries`, query) });
}
export interface Candidate {
  id: string;
  name: string;
  regNo: string;
  gender: string;
  className: string;
  classId: string;
}
/**
 * Students the entry forms may pick: those of the actor's classes matching the keyword; for a relay (`eventId`) those
 * who may run in it, of one class once the first runner is picked (`classId`).
 */
export function candidateSearch(family: SchoolFamily, meetId: string, eventId?: string, classId?: string) {
  const api = meets(family);
  return (keyword: string) => get<Candidate[]>(`${api.base}/${meetId}/entries/candidates`, { keyword, ...(eventId ? { eventId } : {}), ...(classId ? { classId } : {}) });
}
export function useArrangement(family: SchoolFamily, meetId: string) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'meet', meetId, 'arrangement'], queryFn: () => get<Arrangement>(`${api.base}/${meetId}/arrangement`) });
}
export function useHeatResults(family: SchoolFamily, meetId: string, heatId: string | undefined) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'meet', meetId, 'results', heatId], queryFn: () => get<ResultRow[]>(`${api.base}/${meetId}/heats/${heatId}/results`), enabled: !!heatId });
}
export function usePoints(family: SchoolFamily, meetId: string) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'meet', meetId, 'points'], queryFn: () => get<PointsView>(`${api.base}/${meetId}/points`) });
}
/** The live board polls: a published result shows within seconds, without a reload. */
export function useBoard(family: SchoolFamily, meetId: string) {
  const api = meets(family);
  return useQuery({ queryKey: [...api.key, 'meet', meetId, 'board'], queryFn: () => get<BoardView>(`${api.base}/${meetId}/board`), refetchInterval: 3000 });
}
