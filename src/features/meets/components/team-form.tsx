import type { SchoolFamily } from '@/domain/menus/access';
import { useState } from 'react';
import { ArrowDown, ArrowUp, X } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { defaultTeamName, legsIssue, teamSaveSchema, type EntryRow } from '@/domain/meets/entries';
import { CustomField, SelectField, TextField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { FormDialog } from '@/components/form/form-dialog';
import { SearchPicker } from '@/components/picker/search-picker';
import { Button } from '@/components/ui/button';
import { candidateSearch, meets, useMeetCalls, type Candidate } from '../api';

interface Member {
  id: string;
  name: string;
}

/** What a picked or offered student shows beside the name in both entry forms: "七年级1班 · 男". */
export function candidateHint(t: TFunction<'meets'>, c: Candidate): string {
  return `${c.className} · ${t(`gender.${c.gender}`)}`;
}

/**
 * The relay team form (docs/product-rules.md#meets): the relay, then the runners picked from the class's students (the
 * first pick fixes the class) in running order, moved up and down, and optional reserves; the name defaults to the
 * class's next team name. The same schema as the server checks the team; the server adds the rules it alone knows.
 */
export function TeamDialog({ family, meetId, team, teams, open, onOpenChange }: { family: SchoolFamily; meetId: string; team?: EntryRow; teams: readonly EntryRow[]; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('meets');
  const meet = meets(family).useGet(meetId);
  const calls = useMeetCalls(family, meetId);
  const relays = (meet.data?.groups ?? []).flatMap((g) => g.events.filter((e) => e.type === 'relay').map((e) => ({ ...e, groupName: g.name })));
  const members = team?.members ?? [];
  const defaults: TeamForm = {
    eventId: team?.eventId ?? relays[0]?.id ?? '',
    classId: team?.classId ?? '',
    teamName: team?.studentName ?? '',
    legs: members.filter((m) => m.leg != null).map((m) => m.studentId),
    reserves: members.filter((m) => m.leg == null).map((m) => m.studentId),
    version: team?.version,
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={teamSaveSchema}
      defaults={defaults}
      title={team ? t('team.edit') : t('team.add')}
      description={t('team.hint')}
      className="sm:max-w-xl"
      submit={async (body) => {
        // The number of legs is the event's (the schema alone cannot know it).
        const issue = legsIssue(body.legs, relays.find((e) => e.id === body.eventId)?.relayLegs ?? 4);
        if (issue) throw new Error(t(issue));
        if (team) {
          await calls.updateTeam.mutateAsync({ id: team.id, body });
          return null;
        }
        return calls.addTeam.mutateAsync(body);
      }}
      success={(out) => (out ? t('team.added', { bib: out.bib }) : t('team.saved'))}
      ready={(v) => !!v.classId && !!v.eventId}
      submitText={t('team.submit')}
      submitTestId="team-submit"
      data-testid="team-form"
    >
      {(form) => <TeamFields family={family} meetId={meetId} team={team} teams={teams} relays={relays} form={form} />}
    </FormDialog>
  );
}

type TeamForm = z.input<typeof teamSaveSchema>;
type Relay = { id: string; name: string; groupName: string; relayLegs?: number | null };

/** The team's fields: the runners and reserves are kept as ids in the form, their names here. */
function TeamFields({ family, meetId, team, teams, relays, form }: { family: SchoolFamily; meetId: string; team?: EntryRow; teams: readonly EntryRow[]; relays: Relay[]; form: UseFormReturn<TeamForm, unknown, z.output<typeof teamSaveSchema>> }) {
  const { t } = useTranslation('meets');
  const [names, setNames] = useState(() => new Map((team?.members ?? []).map((m) => [m.studentId, m.name])));
  const [className, setClassName] = useState(team?.className ?? null);
  const [eventId, classId, legIds = [], reserveIds = []] = useWatch({ control: form.control, name: ['eventId', 'classId', 'legs', 'reserves'] });
  const event = relays.find((e) => e.id === eventId);
  const legs: Member[] = legIds.map((id) => ({ id, name: names.get(id) ?? '' }));
  const reserves: Member[] = reserveIds.map((id) => ({ id, name: names.get(id) ?? '' }));
  const picked = new Set([...legIds, ...reserveIds]);
  const legCount = event?.relayLegs ?? 4;
  const search = candidateSearch(family, meetId, event?.id, classId || undefined);
  const setLegs = (next: Member[]) => form.setValue('legs', next.map((m) => m.id), { shouldDirty: true });
  const setReserves = (next: Member[]) => form.setValue('reserves', next.map((m) => m.id), { shouldDirty: true });

  const pick = (o: { id: string; name: string; classId: string; className: string }) => {
    setNames((m) => new Map(m).set(o.id, o.name));
    if (!classId) {
      form.setValue('classId', o.classId);
      setClassName(o.className);
      if (!form.getValues('teamName')) form.setValue('teamName', defaultTeamName(o.className, teams.filter((x) => x.classId === o.classId && x.eventId === event?.id).length));
    }
    if (legs.length < legCount) setLegs([...legs, { id: o.id, name: o.name }]);
    else setReserves([...reserves, { id: o.id, name: o.name }]);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...legs];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setLegs(next);
  };
  const missing = legsIssue(legs, legCount) ? legCount - legs.length : 0;

  const row = (m: Member, i: number, reserve: boolean) => (
    <li key={m.id} className="flex items-center gap-2 rounded border px-2 py-1 text-sm" data-testid={reserve ? 'team-reserve' : 'team-leg'}>
      <span className="w-16 shrink-0 text-muted-foreground">{reserve ? t('team.reserve') : t('team.leg', { no: i + 1 })}</span>
      <span className="min-w-0 flex-1 truncate font-medium">{m.name}</span>
      {reserve ? (
        <Button type="button" size="sm" variant="ghost" disabled={legs.length >= legCount} onClick={() => (setReserves(reserves.filter((x) => x.id !== m.id)), setLegs([...legs, m]))}>
          {t('team.toLegs')}
        </Button>
      ) : (
        <>
          <Button type="button" size="icon" variant="ghost" aria-label={`${t('team.up')} ${m.name}`} disabled={i === 0} onClick={() => move(i, -1)}>
            <ArrowUp aria-hidden />
          </Button>
          <Button type="button" size="icon" variant="ghost" aria-label={`${t('team.down')} ${m.name}`} disabled={i === legs.length - 1} onClick={() => move(i, 1)}>
            <ArrowDown aria-hidden />
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => (setLegs(legs.filter((x) => x.id !== m.id)), setReserves([...reserves, m]))}>
            {t('team.toReserves')}
          </Button>
        </>
      )}
      <Button
        type="button"
        size="icon"
        variant="ghost"
        aria-label={`${t('team.remove')} ${m.name}`}
        onClick={() => (reserve ? setReserves(reserves.filter((x) => x.id !== m.id)) : setLegs(legs.filter((x) => x.id !== m.id)))}
      >
        <X aria-hidden />
      </Button>
    </li>
  );

  return (
    <>
      <SelectField
        name="eventId"
        label={t('team.event')}
        required
        disabled={!!team}
        options={relays.map((e) => ({ value: e.id, label: `${e.groupName} ${e.name}` }))}
        testId="team-event"
      />
      <CustomField
        name="legs"
        label={t('team.members')}
        render={() => (
          <FormControl>
            <div className="grid gap-2 text-sm">
              <div className="flex items-center gap-2">
                <div className="flex-1">
                  <SearchPicker
                    queryKey={['meets', meetId, 'team-candidates', event?.id ?? '', classId ?? '']}
                    search={async (k) => (await search(k)).map((c) => ({ ...c, hint: candidateHint(t, c) }))}
                    onPick={pick}
                    exclude={picked}
                    disabled={!event}
                    label={t('team.search')}
                    placeholder={t('entry.searchPlaceholder')}
                    data-testid="team-picker"
                  />
                </div>
                <span className="shrink-0 text-muted-foreground" data-testid="team-class">
                  {t('team.classOf', { name: className ?? t('team.noneYet') })}
                </span>
              </div>
              <ol className="grid gap-1" aria-label={t('team.legs')}>
                {legs.map((m, i) => row(m, i, false))}
              </ol>
              {missing > 0 ? <p className="text-muted-foreground">{t('team.legsNeeded', { count: missing })}</p> : null}
              {reserves.length ? (
                <ul className="grid gap-1" aria-label={t('team.reserves')}>
                  {reserves.map((m, i) => row(m, i, true))}
                </ul>
              ) : null}
            </div>
          </FormControl>
        )}
      />
      <TextField name="teamName" label={t('team.name')} required inputTestId="team-name" />
    </>
  );
}
