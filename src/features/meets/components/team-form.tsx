import { useState } from 'react';
import { ArrowDown, ArrowUp, X } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { defaultTeamName, legsIssue, teamSaveSchema, type EntryRow } from '@/domain/meets/entries';
import { SearchPicker } from '@/components/picker/search-picker';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/lib/toast';
import { candidateSearch, meets, useMeetCalls, type Candidate, type MeetFamily } from '../api';

interface Member {
  id: string;
  name: string;
}

const SELECT = 'h-9 rounded-md border bg-background px-2 text-sm';

/** What a picked or offered student shows beside the name in both entry forms: "七年级1班 · 男". */
export function candidateHint(t: TFunction<'meets'>, c: Candidate): string {
  return `${c.className} · ${t(`gender.${c.gender}`)}`;
}

/**
 * The relay team form (docs/product-rules.md#meets): the relay, then the runners picked from the class's students (the
 * first pick fixes the class) in running order, moved up and down, and optional reserves; the name defaults to the
 * class's next team name. The same schema as the server checks the team; the server adds the rules it alone knows.
 */
export function TeamDialog({ family, meetId, team, teams, open, onOpenChange }: { family: MeetFamily; meetId: string; team?: EntryRow; teams: readonly EntryRow[]; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('meets');
  const meet = meets(family).useGet(meetId);
  const calls = useMeetCalls(family, meetId);
  const relays = (meet.data?.groups ?? []).flatMap((g) => g.events.filter((e) => e.type === 'relay').map((e) => ({ ...e, groupName: g.name })));
  const [eventId, setEventId] = useState(team?.eventId ?? '');
  const event = relays.find((e) => e.id === eventId) ?? (team ? undefined : relays[0]);
  const [klass, setKlass] = useState<{ id: string; name: string } | null>(team ? { id: team.classId, name: team.className } : null);
  const [legs, setLegs] = useState<Member[]>(team?.members.filter((m) => m.leg != null).map((m) => ({ id: m.studentId, name: m.name })) ?? []);
  const [reserves, setReserves] = useState<Member[]>(team?.members.filter((m) => m.leg == null).map((m) => ({ id: m.studentId, name: m.name })) ?? []);
  const [name, setName] = useState(team?.studentName ?? '');
  const [error, setError] = useState<string | null>(null);
  const picked = new Set([...legs, ...reserves].map((m) => m.id));
  const legCount = event?.relayLegs ?? 4;
  const search = candidateSearch(family, meetId, event?.id, klass?.id);

  const pick = (o: { id: string; name: string; classId: string; className: string }) => {
    if (!klass) {
      setKlass({ id: o.classId, name: o.className });
      if (!name) setName(defaultTeamName(o.className, teams.filter((x) => x.classId === o.classId && x.eventId === event?.id).length));
    }
    if (legs.length < legCount) setLegs([...legs, { id: o.id, name: o.name }]);
    else setReserves([...reserves, { id: o.id, name: o.name }]);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...legs];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setLegs(next);
  };
  const body = { eventId: event?.id ?? '', classId: klass?.id ?? '', teamName: name, legs: legs.map((m) => m.id), reserves: reserves.map((m) => m.id), version: team?.version };
  const missing = legsIssue(legs, legCount) ? legCount - legs.length : 0;

  const submit = async () => {
    setError(null);
    const parsed = teamSaveSchema.safeParse(body);
    const issue = parsed.success ? legsIssue(parsed.data.legs, legCount) : parsed.error.issues[0].message;
    if (issue || !parsed.success) return setError(t(issue ?? 'meets:v.relayMembers'));
    try {
      if (team) {
        await calls.updateTeam.mutateAsync({ id: team.id, body: parsed.data });
        toast.success(t('team.saved'));
      } else {
        const out = await calls.addTeam.mutateAsync(parsed.data);
        toast.success(t('team.added', { bib: out.bib }));
      }
      onOpenChange(false);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl" data-testid="team-form">
        <DialogHeader>
          <DialogTitle>{team ? t('team.edit') : t('team.add')}</DialogTitle>
          <DialogDescription>{t('team.hint')}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-3">
          <label className="grid gap-1 text-sm">
            {t('team.event')}
            <select className={SELECT} value={event?.id ?? ''} disabled={!!team} onChange={(e) => setEventId(e.target.value)} data-testid="team-event">
              {relays.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.groupName} {e.name}
                </option>
              ))}
            </select>
          </label>
          <div className="grid gap-1 text-sm">
            <span>{t('team.members')}</span>
            <div className="flex items-center gap-2">
              <div className="flex-1">
                <SearchPicker
                  queryKey={['meets', meetId, 'team-candidates', event?.id ?? '', klass?.id ?? '']}
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
                {t('team.classOf', { name: klass?.name ?? t('team.noneYet') })}
              </span>
            </div>
          </div>
          <ol className="grid gap-1" aria-label={t('team.legs')}>
            {legs.map((m, i) => row(m, i, false))}
          </ol>
          {missing > 0 ? <p className="text-sm text-muted-foreground">{t('team.legsNeeded', { count: missing })}</p> : null}
          {reserves.length ? (
            <ul className="grid gap-1" aria-label={t('team.reserves')}>
              {reserves.map((m, i) => row(m, i, true))}
            </ul>
          ) : null}
          <label className="grid gap-1 text-sm">
            {t('team.name')}
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={40} data-testid="team-name" />
          </label>
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('common:action.cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={!klass || !event} loading={calls.addTeam.isPending || calls.updateTeam.isPending} data-testid="team-submit">
            {t('team.submit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
