import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { Check, ClipboardList, Monitor, Pencil, Plus, Trophy, Users, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { ENTRY_STATUS_TABLE, entrySaveSchema, type EntryRow, type EntrySave } from '@/domain/meets/entries';
import { formatMark, readMark } from '@/domain/meets/marks';
import { meetListQuery, type MeetRow } from '@/domain/meets/meets';
import type { ResultRow } from '@/domain/meets/results';
import { RESULT_STATUSES } from '@/domain/meets/ranking';
import { enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CheckboxGroupField, CustomField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { FormDialog } from '@/components/form/form-dialog';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { PageAction } from '@/components/list/page-actions';
import { rowActionsColumn, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { SearchPicker } from '@/components/picker/search-picker';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { candidateSearch, meets, useArrangement, useBoard, useEntries, useHeatResults, useMeetCalls, usePoints, type Candidate } from '../api';
import { useHeatTitle } from './heat-parts';
import { BoardLinksButton } from './board-links';
import { ResultValidity } from './result-validity';
import { useSignUpImport } from './signup-io';
import { candidateHint, TeamDialog } from './team-form';
import { MeetBookButtons } from './book-buttons';

type MeetFilters = { name?: string };
const meetCol = createDataTableColumnHelper<MeetRow>();

/** The meet list of a shared meet screen (sign-up, scores, points): one row action opens the meet's sub-screen. */
export function MeetPickerScreen({ family, pageKey, action }: { family: SchoolFamily; pageKey: string; action: RowAction<MeetRow>['action'] }) {
  const { t } = useTranslation('meets');
  const navigate = useNavigate();
  const access = usePageAccess(pageKey);
  const state = useListState<MeetFilters>(['name']);
  const query = meets(family).useList(state.query);
  const filters: FilterDef<MeetFilters>[] = [{ name: 'name', type: 'text', label: t('meet.name'), placeholder: t('meet.namePlaceholder') }];
  const columns = useMemo(() => {
    const icon = action === 'entry' ? <ClipboardList aria-hidden /> : <Trophy aria-hidden />;
    return meetCol.columns([
        meetCol.accessor('name', { header: t('meet.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        meetCol.display({ id: 'dates', header: t('meet.dates'), cell: ({ row }) => `${row.original.startDate} ~ ${row.original.endDate}` }),
        meetCol.accessor('status', { header: t('meet.status'), cell: ({ getValue }) => t(`status.${getValue()}`) }),
        meetCol.accessor('entryCount', { header: t('meet.entryCount'), meta: { align: 'right' } }),
        rowActionsColumn<MeetRow>({
          pageKey,
          header: t('components:list.actions'),
          width: 200,
          actions: [
            { action, icon, onClick: (r) => void navigate(access.paths.route(action, r.id)) },
            ...(pageKey.endsWith('.score') ? [{ action: 'screen' as const, icon: <Monitor aria-hidden />, onClick: (r: MeetRow) => void navigate(access.paths.route('screen', r.id)) }] : []),
          ],
        }),
      ]);
  }, [t, pageKey, action, navigate, access.paths]);
  return <ListScreen pageKey={pageKey} state={state} querySchema={meetListQuery} filters={filters} query={query} columns={columns} rowKey="id" data-testid="meet-picker" />;
}

const entryCol = createDataTableColumnHelper<EntryRow>();
type EntryFilters = { name?: string; status?: string };

/** signUp/:meetId: the entries of the actor's classes; add athletes (detail), approve / reject in batches (audit). */
export function SignUpScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const key = 'single.sportsMeet.signUp';
  const meet = meets(family).useGet(meetId);
  const state = useListState<EntryFilters>(['name', 'status']);
  const query = useEntries(family, meetId, state.query);
  const calls = useMeetCalls(family, meetId);
  const io = useSignUpImport<EntryRow>(family, meetId, () => void query.refetch());
  const [editing, setEditing] = useState<EntryRow | null>(null);
  const hasRelays = !!meet.data?.groups.some((g) => g.events.some((e) => e.type === 'relay'));
  const columns = useMemo(
    () =>
      entryCol.columns([
        entryCol.accessor('bib', { header: t('heat.bib'), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
        entryCol.accessor('studentName', { header: t('heat.name'), cell: ({ row }) => <EntryName entry={row.original} /> }),
        entryCol.accessor('className', { header: t('heat.className') }),
        entryCol.accessor('groupName', { header: t('group.name') }),
        entryCol.accessor('eventName', { header: t('event.name') }),
        entryCol.accessor('status', {
          header: t('entry.status'),
          cell: ({ row }) => (
            <EnumBadge table={ENTRY_STATUS_TABLE} value={row.original.status} title={row.original.reason ?? undefined} />
          ),
        }),
        rowActionsColumn<EntryRow>({
          pageKey: key,
          header: t('components:list.actions'),
          width: 120,
          actions: [{ action: 'detail', label: t('team.edit'), icon: <Pencil aria-hidden />, hidden: (r) => r.kind !== 'team', onClick: (r) => setEditing(r), testId: 'edit-team' }],
        }),
      ]),
    [t],
  );
  return (
    <>
      <ListScreen
        pageKey={key}
        description={meet.data ? t('entry.description', { name: meet.data.name, start: meet.data.signupStart, end: meet.data.signupEnd, cap: meet.data.athleteCap }) : undefined}
        state={state}
        filters={[
          { name: 'name', type: 'text', label: t('heat.name') },
          { name: 'status', type: 'select', label: t('entry.status'), options: enumOptions(ENTRY_STATUS_TABLE, t) },
        ]}
        query={query}
        columns={columns}
        rowKey="id"
        selectable
        toolbar={[io.toolbar]}
        actions={{
          addEntry: { button: 'detail', where: 'toolbar', label: t('entry.add'), icon: <Plus aria-hidden />, dialog: (p) => <AddEntryDialog family={family} meetId={meetId} {...p} /> },
          ...(hasRelays
            ? { addTeam: { button: 'detail', where: 'toolbar', label: t('team.add'), icon: <Users aria-hidden />, dialog: (p) => <TeamDialog family={family} meetId={meetId} teams={query.data?.records ?? []} {...p} /> } satisfies PageAction<EntryRow> }
            : {}),
          approve: { button: 'audit', where: 'toolbar', label: t('entry.approve'), icon: <Check aria-hidden />, needsSelection: true, run: (rows) => calls.review.mutateAsync({ ids: rows.map((r) => r.id), status: 'approved' }), success: t('entry.reviewed') },
          reject: {
            button: 'audit',
            where: 'toolbar',
            label: t('entry.reject'),
            icon: <X aria-hidden />,
            needsSelection: true,
            variant: 'destructive',
            run: (rows) => calls.review.mutateAsync({ ids: rows.map((r) => r.id), status: 'rejected', reason: t('entry.rejectReason') }),
            success: t('entry.reviewed'),
          },
        }}
        onExport={io.onExport}
        exportLayout="fixed"
        data-testid="signup"
      />
      {io.dialog}
      {editing ? <TeamDialog key={editing.id} family={family} meetId={meetId} team={editing} teams={[]} open onOpenChange={(o) => !o && setEditing(null)} /> : null}
    </>
  );
}

/** An athlete's name, or a relay team's name with its runners in order and its reserves. */
function EntryName({ entry }: { entry: EntryRow }) {
  const { t } = useTranslation('meets');
  if (entry.kind !== 'team') return <>{entry.studentName}</>;
  const legs = entry.members.filter((m) => m.leg != null);
  const reserves = entry.members.filter((m) => m.leg == null);
  return (
    <div className="grid gap-0.5" data-testid="team-entry">
      <span className="font-medium">
        {entry.studentName} <Badge variant="outline">{t('team.kind')}</Badge>
      </span>
      <span className="text-xs text-muted-foreground">
        {legs.map((m) => `${m.leg}. ${m.name}`).join('  ')}
        {reserves.length ? ` · ${t('team.reserveList', { names: reserves.map((m) => m.name).join(' ') })}` : ''}
      </span>
    </div>
  );
}

/** One student's entry: the student (picked), the events open to them (by the group's gender) and an optional seed mark. */
function AddEntryDialog({ family, meetId, open, onOpenChange }: { family: SchoolFamily; meetId: string; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('meets');
  const [student, setStudent] = useState<Candidate | null>(null);
  const calls = useMeetCalls(family, meetId);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setStudent(null);
        onOpenChange(next);
      }}
      schema={entrySaveSchema}
      defaults={{ studentId: '', eventIds: [], seedMark: null }}
      title={t('entry.add')}
      description={t('entry.addHint')}
      className="sm:max-w-xl"
      submit={(body) => calls.addEntries.mutateAsync(body)}
      success={(out) => t('entry.added', { bib: out.bib })}
      ready={(v) => !!v.studentId && (v.eventIds?.length ?? 0) > 0}
      submitText={t('entry.submit')}
      submitTestId="entry-submit"
      data-testid="add-entry"
    >
      {(form) => <EntryFields family={family} meetId={meetId} form={form} student={student} setStudent={setStudent} />}
    </FormDialog>
  );
}


/** The entry's fields; the picked student is shown here, its id kept in the form. */
function EntryFields({ family, meetId, form, student, setStudent }: { family: SchoolFamily; meetId: string; form: UseFormReturn<z.input<typeof entrySaveSchema>, unknown, EntrySave>; student: Candidate | null; setStudent(s: Candidate | null): void }) {
  const { t } = useTranslation('meets');
  const meet = meets(family).useGet(meetId);
  const search = candidateSearch(family, meetId);
  const eventsOf = (s: Candidate | null) =>
    (meet.data?.groups ?? []).filter((g) => !s || g.gender === 'mixed' || g.gender === s.gender).flatMap((g) => g.events.map((e) => ({ ...e, groupName: g.name })));
  const hint = (c: Candidate) => candidateHint(t, c);
  const choose = (s: Candidate | null) => {
    setStudent(s);
    form.setValue('studentId', s?.id ?? '');
    // A newly picked student keeps only the events open to them (a boy's pick of a girls' event is dropped).
    const allowed = new Set(eventsOf(s).map((e) => e.id));
    form.setValue('eventIds', (form.getValues('eventIds') ?? []).filter((i) => allowed.has(i)));
  };
  return (
    <>
      <CustomField
        name="studentId"
        label={t('entry.student')}
        render={() => (
          <FormControl>
            <div className="grid gap-1 text-sm">
              {/* The same picker as the relay team form (team-form.tsx): picking another student replaces the one shown. */}
              <SearchPicker
                queryKey={['meets', meetId, 'entry-candidates']}
                search={async (k) => (await search(k)).map((c) => ({ ...c, hint: hint(c) }))}
                onPick={(o: Candidate) => choose(o)}
                exclude={student ? new Set([student.id]) : undefined}
                label={t('entry.search')}
                placeholder={t('entry.searchPlaceholder')}
                data-testid="entry-picker"
              />
              {student ? (
                <div className="flex items-center gap-2 rounded border px-2 py-1" data-testid="entry-student">
                  <span className="min-w-0 flex-1 truncate font-medium">{student.name}</span>
                  <span className="shrink-0 text-muted-foreground">{hint(student)}</span>
                  <Button type="button" size="icon" variant="ghost" aria-label={`${t('team.remove')} ${student.name}`} onClick={() => choose(null)}>
                    <X aria-hidden />
                  </Button>
                </div>
              ) : null}
            </div>
          </FormControl>
        )}
      />
      <CheckboxGroupField name="eventIds" label={t('entry.events')} options={eventsOf(student).map((e) => ({ value: e.id, label: `${e.groupName} ${e.name}` }))} />
      <CustomField
        name="seedMark"
        label={t('entry.seedMark')}
        render={(field) => (
          <FormControl>
            {/* Blank is no seed mark (null), not zero. */}
            <Input
              name={field.name}
              ref={field.ref}
              value={(field.value as string | number | null | undefined) ?? ''}
              onChange={(e) => field.onChange(e.target.value === '' ? null : e.target.value)}
              onBlur={field.onBlur}
              inputMode="decimal"
            />
          </FormControl>
        )}
      />
    </>
  );
}

/** score/:meetId: pick a heat, enter its results (entry), confirm and publish them (audit). */
export function ScoreEntryScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const access = usePageAccess('single.sportsMeet.score');
  const arrangement = useArrangement(family, meetId);
  const [heatId, setHeatId] = useState<string>();
  const title = useHeatTitle();
  const heats = (arrangement.data?.heats ?? []).filter((h) => h.athletes.length);
  const heat = heats.find((h) => h.id === heatId) ?? heats[0];
  return (
    <div className="grid gap-4 lg:grid-cols-[280px_minmax(0,1fr)]" data-testid="score-entry">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{t('score.heats')}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-1">
          {heats.map((h) => (
            <button
              key={h.id}
              type="button"
              onClick={() => setHeatId(h.id)}
              aria-current={h.id === heat?.id}
              className={`rounded px-2 py-1 text-left text-sm max-md:min-h-11 ${h.id === heat?.id ? 'bg-primary text-primary-foreground' : 'hover:bg-muted'}`}
              data-testid="score-heat"
            >
              {title(h)}
            </button>
          ))}
          {!heats.length ? <p className="text-sm text-muted-foreground">{t('arrangeScreen.empty')}</p> : null}
        </CardContent>
      </Card>
      {heat ? <HeatResultsCard key={heat.id} family={family} meetId={meetId} heatId={heat.id} title={title(heat)} field={!(heat.type === 'track' || heat.type === 'relay')} canEnter={access.can('entry')} canReview={access.can('audit')} /> : null}
    </div>
  );
}

function HeatResultsCard({ family, meetId, heatId, title, field, canEnter, canReview }: { family: SchoolFamily; meetId: string; heatId: string; title: string; field: boolean; canEnter: boolean; canReview: boolean }) {
  const { t } = useTranslation('meets');
  const results = useHeatResults(family, meetId, heatId);
  const calls = useMeetCalls(family, meetId);
  const [draft, setDraft] = useState<Record<string, { mark: string; status: ResultRow['status'] }>>({});
  const kind = field ? 'distance' : 'time';
  const rows = results.data ?? [];
  const value = (r: ResultRow) => draft[r.id] ?? { mark: r.mark != null ? formatMark(kind, r.mark) : '', status: r.status };
  const state = rows[0]?.state ?? 'pending';
  // Marks that cannot be read, by result id: shown by their field; nothing is saved until they are fixed.
  const [markErrors, setMarkErrors] = useState<Record<string, string>>({});
  const save = async () => {
    const read = rows.map((r) => ({ row: r, ...readMark(kind, value(r).mark) }));
    const errors = Object.fromEntries(read.flatMap((x) => (x.error ? [[x.row.id, x.error]] : [])));
    setMarkErrors(errors);
    if (Object.keys(errors).length) {
      document.getElementById(`mark-${read.find((x) => x.error)!.row.id}`)?.focus();
      return;
    }
    await calls.enter.mutateAsync({ heatId, body: { results: read.map((x) => ({ id: x.row.id, mark: x.mark ?? null, status: value(x.row).status })) } });
    setDraft({});
    await results.refetch();
    toast.success(t('score.saved'));
  };
  const step = async (s: 'confirm' | 'publish') => {
    await calls.step.mutateAsync({ step: s, heatIds: [heatId] });
    await results.refetch();
    toast.success(t(`score.${s}ed`));
  };
  const locked = state === 'confirmed' || state === 'published';
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          {title} <Badge data-testid="result-state">{t(`resultState.${state}`)}</Badge>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <QueryState query={results} data={results.data}>
          {() => (
            // A phone (a teacher on the field): each athlete is a block of three lines (lane, bib, name and class; the
            // mark and status, full width; place and validity), so the mark box is never off screen.
            <div className="overflow-x-auto">
              <table className="w-full text-sm whitespace-nowrap max-md:block max-md:whitespace-normal">
                <thead className="max-md:sr-only">
                  <tr className="text-left text-muted-foreground">
                    <th className="py-1 font-normal">{field ? t('heat.order') : t('heat.lane')}</th>
                    <th className="py-1 font-normal">{t('heat.bib')}</th>
                    <th className="py-1 font-normal">{t('heat.name')}</th>
                    <th className="py-1 font-normal">{t('heat.className')}</th>
                    <th className="py-1 font-normal">{t('score.mark')}</th>
                    <th className="py-1 font-normal">{t('score.status')}</th>
                    <th className="py-1 font-normal">{t('score.place')}</th>
                    <th className="py-1 font-normal">{t('score.validity')}</th>
                  </tr>
                </thead>
                <tbody className="max-md:block">
                  {rows.map((r) => (
                    <tr key={r.id} className="border-t max-md:grid max-md:grid-cols-[auto_auto_minmax(0,1fr)_auto] max-md:items-center max-md:gap-2 max-md:py-3" data-testid="result-row">
                      <td className="py-1 font-mono max-md:before:mr-1 max-md:before:font-sans max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]" data-label={field ? t('heat.order') : t('heat.lane')}>
                        {r.lane}
                      </td>
                      <td className="py-1 font-mono">{r.bib}</td>
                      <td className="py-1 max-md:font-medium max-md:break-keep">
                        {r.studentName} {r.newRecord ? <Badge variant="destructive">{t('score.newRecord')}</Badge> : null}
                        {r.legNames ? <span className="block text-xs text-muted-foreground">{r.legNames}</span> : null}
                      </td>
                      <td className="py-1 max-md:break-keep max-md:text-muted-foreground">{r.className}</td>
                      <td className="py-1 max-md:col-span-3">
                        <Input
                          id={`mark-${r.id}`}
                          aria-label={t('score.markOf', { name: r.studentName })}
                          aria-invalid={markErrors[r.id] ? true : undefined}
                          aria-describedby={markErrors[r.id] ? `mark-${r.id}-error` : undefined}
                          className="h-8 w-28 max-md:w-full"
                          value={value(r).mark}
                          disabled={locked || !canEnter}
                          inputMode="decimal"
                          onChange={(e) => {
                            setDraft({ ...draft, [r.id]: { ...value(r), mark: e.target.value } });
                            if (markErrors[r.id]) setMarkErrors(({ [r.id]: _fixed, ...rest }) => rest);
                          }}
                        />
                        {markErrors[r.id] ? (
                          <p id={`mark-${r.id}-error`} role="alert" className="mt-1 max-w-40 text-xs whitespace-normal text-destructive" data-testid="mark-error">
                            {t(markErrors[r.id])}
                          </p>
                        ) : null}
                      </td>
                      <td className="py-1">
                        <select
                          aria-label={t('score.statusOf', { name: r.studentName })}
                          className="h-8 rounded-md border bg-background px-2 max-md:h-11"
                          value={value(r).status}
                          disabled={locked || !canEnter}
                          onChange={(e) => setDraft({ ...draft, [r.id]: { ...value(r), status: e.target.value as ResultRow['status'] } })}
                        >
                          {RESULT_STATUSES.map((s) => (
                            <option key={s} value={s}>
                              {t(`resultStatus.${s}`)}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td className="py-1 font-mono max-md:col-span-2 max-md:before:mr-1 max-md:before:font-sans max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]" data-label={t('score.place')}>
                        {r.place ?? '—'}
                      </td>
                      <td className="py-1 max-md:col-span-2 max-md:justify-self-end">
                        <ResultValidity base={calls.base} row={r} onChanged={() => results.refetch()} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
        <div className="flex flex-wrap gap-2">
          {canEnter ? (
            <Button onClick={() => void save()} disabled={locked} loading={calls.enter.isPending} data-testid="results-save">
              {t('score.save')}
            </Button>
          ) : null}
          {canReview ? (
            <Button variant="outline" onClick={() => void step('confirm')} disabled={state !== 'entered'} data-testid="results-confirm">
              {t('score.confirm')}
            </Button>
          ) : null}
          {canReview ? (
            <Button variant="outline" onClick={() => void step('publish')} disabled={state !== 'confirmed'} data-testid="results-publish">
              {t('score.publish')}
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** points/:meetId: class and grade team totals, the individual ranking and each scoring place. */
export function PointsScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const points = usePoints(family, meetId);
  const meet = meets(family).useGet(meetId);
  return (
    <div className="grid gap-4" data-testid="points">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{meet.data?.name}</h2>
        <MeetBookButtons family={family} meetId={meetId} only="pointsTable" />
      </div>
      <QueryState query={points} data={points.data}>
        {(p) => (
          <div className="grid gap-4 lg:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('points.classes')}</CardTitle>
              </CardHeader>
              <CardContent>
                <Standings rows={p.classes.map((c) => ({ id: c.id, rank: c.rank, name: c.name, points: c.points }))} testId="points-class" />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle className="text-base">{t('points.athletes')}</CardTitle>
              </CardHeader>
              <CardContent>
                <Standings rows={p.athletes} />
              </CardContent>
            </Card>
            <Card className="lg:col-span-2">
              <CardHeader>
                <CardTitle className="text-base">{t('points.detail')}</CardTitle>
              </CardHeader>
              <CardContent>
                <table className="w-full text-sm">
                  <thead>
                    <tr className="text-left text-muted-foreground">
                      <th className="py-1 font-normal">{t('event.name')}</th>
                      <th className="py-1 font-normal">{t('heat.name')}</th>
                      <th className="py-1 font-normal">{t('heat.className')}</th>
                      <th className="py-1 font-normal">{t('score.place')}</th>
                      <th className="py-1 font-normal">{t('score.mark')}</th>
                      <th className="py-1 text-right font-normal">{t('points.points')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.lines.map((l, i) => (
                      <tr key={i} className="border-t">
                        <td className="py-1">
                          {l.groupName} {l.eventName}
                        </td>
                        <td className="py-1">{l.name}</td>
                        <td className="py-1">{l.className}</td>
                        <td className="py-1 font-mono">{l.place}</td>
                        <td className="py-1 font-mono">
                          {l.mark} {l.newRecord ? <Badge variant="destructive">{t('score.newRecord')}</Badge> : null}
                        </td>
                        <td className="py-1 text-right font-mono">{l.points}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </CardContent>
            </Card>
          </div>
        )}
      </QueryState>
    </div>
  );
}

function Standings({ rows, testId }: { rows: { id: string; rank: number; name: string; points: number }[]; testId?: string }) {
  const { t } = useTranslation('meets');
  if (!rows.length) return <p className="text-sm text-muted-foreground">{t('points.none')}</p>;
  return (
    <ol className="grid gap-1 text-sm" data-testid={testId}>
      {rows.map((r) => (
        <li key={r.id} className="flex gap-3 border-b py-1">
          <span className="w-6 font-mono">{r.rank}</span>
          <span>{r.name}</span>
          <span className="ms-auto font-mono">{r.points}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * score/screen/:meetId: the live board on the wall theme: latest results, upcoming heats, class points, new records; polls
 * every few seconds. A reviewer hands it out to walls as a board link (the same board, published data only, no sign-in).
 */
export function BoardScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId = '' } = useParams();
  const board = useBoard(family, meetId);
  const canLink = usePageAccess('single.sportsMeet.score').can('audit');
  const b = board.data;
  const round = (r: number, no: number) => (r > 0 ? t('heat.final') : t('heat.heat', { no }));
  return (
    <div className="wall dark grid min-h-[80vh] content-start gap-4 rounded-xl bg-background p-6 text-foreground max-md:p-4" data-testid="board">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold max-md:text-2xl">{b?.name}</h1>
        {b && canLink ? <BoardLinksButton family={family} meetId={meetId} meetName={b.name} /> : null}
      </div>
      <QueryState query={board} data={b}>
        {(d) => (
          <div className="grid gap-4 xl:grid-cols-3">
            <section className="grid content-start gap-3 xl:col-span-2" aria-label={t('board.latest')}>
              <h2 className="text-xl font-semibold">{t('board.latest')}</h2>
              {d.latest.map((l) => (
                <div key={l.heatId} className="rounded-lg border p-3" data-testid="board-result">
                  <p className="font-semibold">
                    {l.groupName} {l.eventName} · {round(l.round, l.no)}
                  </p>
                  <ol className="grid gap-1 pt-2 text-lg max-md:text-base">
                    {l.results.map((r, i) => (
                      // On a phone names, classes and marks stay whole (a class wraps as a whole below the name).
                      <li key={i} className="flex items-center gap-3 max-md:gap-2">
                        <span className="w-8 shrink-0 font-mono max-md:w-6">{r.place}</span>
                        <span className="whitespace-nowrap">{r.name}</span>
                        <span className="min-w-0 break-keep text-muted-foreground">{r.className}</span>
                        <span className="ms-auto font-mono whitespace-nowrap">{r.mark}</span>
                        {r.newRecord ? <Badge variant="destructive">{t('score.newRecord')}</Badge> : null}
                      </li>
                    ))}
                  </ol>
                </div>
              ))}
              {!d.latest.length ? <p className="text-muted-foreground">{t('board.noResults')}</p> : null}
            </section>
            <section className="grid content-start gap-3" aria-label={t('points.classes')}>
              <h2 className="text-xl font-semibold">{t('points.classes')}</h2>
              <Standings rows={d.classes} testId="board-points" />
              <h2 className="pt-4 text-xl font-semibold">{t('board.upcoming')}</h2>
              <ol className="grid gap-1">
                {d.upcoming.map((u) => (
                  <li key={u.id} className="flex gap-2">
                    <span className="font-mono">{u.startMin != null ? `${String(Math.floor(u.startMin / 60)).padStart(2, '0')}:${String(u.startMin % 60).padStart(2, '0')}` : ''}</span>
                    <span>
                      {u.groupName} {u.eventName} · {round(u.round, u.no)}
                    </span>
                  </li>
                ))}
              </ol>
              {d.records.length ? <h2 className="pt-4 text-xl font-semibold">{t('board.records')}</h2> : null}
              <ul className="grid gap-1">
                {d.records.map((r) => (
                  <li key={r.id} className="text-warning">
                    {r.groupName} {r.eventName} {r.mark} · {r.holder}
                  </li>
                ))}
              </ul>
            </section>
          </div>
        )}
      </QueryState>
    </div>
  );
}
