import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { CheckCircle2, Flag, Gavel, Radio } from 'lucide-react';
import { FormDialog } from '@/components/form/form-dialog';
import { RadioField, TextareaField, TextField, UploadField } from '@/components/form/fields';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { PhotoAvatar } from '@/components/upload/photo-avatar';
import { QrScanButton } from '@/components/qr-scan/qr-scan-button';
import type { ResultKey } from '@/domain/physique/national-template';
import { ENTRY_STATUS_TABLE, entryAppealSchema, entryResolveSchema, type EntryResolve, type EntryView, type StationStudent, type StationView } from '@/domain/test-day/entries';
import { toApiError } from '@/lib/api-client';
import { useDateTime } from '@/lib/date-time';
import { toast } from '@/lib/toast';
import { useStationStudent, useStationView, useStationWrites, type TestDayFamily } from '../api';

/**
 * A station's screen (physiqueManage/testDay/station/:stationId), made for a phone held in one hand: check a student
 * in (typed 学籍号 or a scanned test card), take each value from the station's device or type it, let the student
 * confirm (签字确认), and record or resolve appeals (docs/product-rules.md#physique-year, test day).
 */
export function StationScreen({ family }: { family: TestDayFamily }) {
  const { t } = useTranslation('testDay');
  const { stationId = '' } = useParams();
  const access = usePageAccess(`${family}.test.testDay`);
  const view = useStationView(family, stationId);
  const writes = useStationWrites(family, stationId);
  const [studentId, setStudentId] = useState<string>();
  const [code, setCode] = useState('');
  const [checkInError, setCheckInError] = useState<string>();
  const student = useStationStudent(family, stationId, studentId);
  const [resolving, setResolving] = useState<string>();

  const submitCode = async (text: string) => {
    setCheckInError(undefined);
    try {
      const s = await writes.checkIn.mutateAsync(text);
      setStudentId(s.student.id);
      setCode('');
    } catch (error) {
      setCheckInError(toApiError(error).message);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) void submitCode(code);
  };
  const v = view.data;
  const canAudit = access.can('audit');
  const canEntry = access.can('entry');

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-3" data-testid="station-screen">
      <PageHeader
        back={{ safe: true }}
        title={v ? v.name : t('station.screenTitle')}
        description={v ? `${v.planName} · ${v.items.map((i) => t(`physique:item.${i}`)).join(t('progress.separator'))}${v.venueName ? ` · ${v.venueName}` : ''}` : undefined}
        className="pb-1"
      />
      {v?.planEnded ? <p className="text-destructive text-sm">{t('station.planEnded')}</p> : null}
      <Card>
        <CardContent className="pt-4">
          <form className="flex flex-col gap-2" onSubmit={onSubmit}>
            <label htmlFor="station-code" className="text-sm font-medium">
              {t('checkIn.label')}
            </label>
            {/* On a phone the code takes the whole line (its hint was cut to "Student num…" at 390 px), the buttons below. */}
            <div className="flex flex-wrap gap-2">
              <Input
                id="station-code"
                data-testid="station-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                inputMode="text"
                autoComplete="off"
                enterKeyHint="go"
                placeholder={t('checkIn.placeholder')}
                aria-invalid={checkInError ? true : undefined}
                aria-describedby={checkInError ? 'station-code-error' : undefined}
                className="h-11 flex-1 text-base max-sm:basis-full"
              />
              <QrScanButton onCode={(text) => void submitCode(text)} />
              <Button type="submit" className="h-11 px-5 max-sm:flex-1" loading={writes.checkIn.isPending} data-testid="station-check-in">
                {t('checkIn.submit')}
              </Button>
            </div>
            {checkInError ? (
              <p id="station-code-error" role="alert" className="text-destructive text-sm">
                {checkInError}
              </p>
            ) : null}
          </form>
        </CardContent>
      </Card>

      {student.data ? (
        <StudentCard family={family} stationId={stationId} data={student.data} canEntry={canEntry} writes={writes} />
      ) : null}

      {v && v.waiting.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">{t('station.waiting', { count: v.waiting.length })}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            {v.waiting.map((w) => (
              <Button key={w.studentId} variant={w.studentId === studentId ? 'default' : 'outline'} size="sm" onClick={() => setStudentId(w.studentId)} data-testid="waiting-student">
                {w.name}
                <span className="text-xs">{w.className}</span>
              </Button>
            ))}
          </CardContent>
        </Card>
      ) : null}

      {v && v.appeals.length > 0 ? (
        <Card data-testid="station-appeals">
          <CardHeader>
            <CardTitle className="text-base">{t('appealUi.open', { count: v.appeals.length })}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2">
            {v.appeals.map((a) => (
              <div key={a.entryId} className="flex items-center justify-between gap-2 rounded-md border p-2 text-sm">
                <button type="button" className="min-w-0 text-left" onClick={() => setStudentId(a.studentId)}>
                  <span className="font-medium">{a.name}</span> · {t(fieldLabel(a.field))} {a.value}
                  {a.note ? <span className="text-muted-foreground block truncate text-xs">{a.note}</span> : null}
                </button>
                {canAudit ? (
                  <Button size="sm" variant="outline" onClick={() => setResolving(a.entryId)} data-testid="appeal-resolve">
                    <Gavel aria-hidden />
                    {t('menus:button.audit')}
                  </Button>
                ) : null}
              </div>
            ))}
          </CardContent>
        </Card>
      ) : null}
      {resolving ? (
        <ResolveDialog
          entry={v?.appeals.find((a) => a.entryId === resolving)}
          open
          onOpenChange={(o) => !o && setResolving(undefined)}
          submit={(body) => writes.resolve.mutateAsync({ id: resolving, ...body })}
        />
      ) : null}
    </div>
  );
}

const fieldLabel = (field: ResultKey) => (field === 'heightCm' || field === 'weightKg' ? `physique:field.${field}` : `physique:item.${field}`);

type Writes = ReturnType<typeof useStationWrites>;

/** The checked-in student: who, photo, each field's device value or typed value, and the confirmation. */
function StudentCard({ family, stationId, data, canEntry, writes }: { family: TestDayFamily; stationId: string; data: StationStudent; canEntry: boolean; writes: Writes }) {
  const { t } = useTranslation('testDay');
  const waiting = data.fields.filter((f) => f.entry?.status === 'entered');
  const [appealing, setAppealing] = useState<EntryView>();
  void family;
  void stationId;
  const confirmAll = async () => {
    try {
      await writes.confirm.mutateAsync({ studentId: data.student.id, entries: waiting.map((f) => ({ id: f.entry!.id, version: f.entry!.version })) });
      toast.success(t('entryUi.confirmed', { name: data.student.name }));
    } catch (error) {
      toast.error(toApiError(error).message);
    }
  };
  return (
    <Card data-testid="station-student">
      <CardContent className="flex flex-col gap-4 pt-4">
        <div className="flex items-center gap-3">
          <PhotoAvatar fileId={data.student.photoFileId} name={data.student.name} className="size-16 text-xl" />
          <div className="min-w-0">
            <div className="text-lg font-semibold" data-testid="station-student-name">
              {data.student.name}
            </div>
            <div className="text-muted-foreground text-sm">
              {data.student.className} · {data.student.regNo} · {t(`physique:gender.${data.student.gender}`)}
            </div>
          </div>
        </div>
        {data.fields.map((f) => (
          <FieldRow key={f.field} field={f} studentId={data.student.id} canEntry={canEntry} writes={writes} onAppeal={setAppealing} />
        ))}
        {canEntry ? (
          <Button
            className="h-12 text-base"
            disabled={waiting.length === 0}
            loading={writes.confirm.isPending}
            onClick={() => void confirmAll()}
            data-testid="station-confirm"
          >
            <CheckCircle2 aria-hidden />
            {t('entryUi.confirm', { count: waiting.length })}
          </Button>
        ) : null}
        <p className="text-muted-foreground text-xs">{t('entryUi.confirmHint')}</p>
      </CardContent>
      {appealing ? (
        <AppealDialog entry={appealing} open onOpenChange={(o) => !o && setAppealing(undefined)} submit={(body) => writes.appeal.mutateAsync({ id: appealing.id, ...body })} />
      ) : null}
    </Card>
  );
}

/** One field: the station device's latest record of today (accept it) or a typed value; a value out of range asks for a second look. */
function FieldRow({ field: f, studentId, canEntry, writes, onAppeal }: { field: StationStudent['fields'][number]; studentId: string; canEntry: boolean; writes: Writes; onAppeal(e: EntryView): void }) {
  const { t } = useTranslation('testDay');
  const time = useDateTime('time');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [stopped, setStopped] = useState<{ source: 'typed' | 'device'; value?: string; recordId?: string }>();
  const entry = f.entry;
  const open = !entry || entry.status === 'entered';
  const id = `value-${f.field}`;
  const send = async (body: { source: 'typed' | 'device'; value?: string; recordId?: string }, confirmOutOfRange = false) => {
    setError(undefined);
    try {
      await writes.enter.mutateAsync({ studentId, field: f.field, ...body, confirmOutOfRange, version: entry?.version });
      setText('');
      setStopped(undefined);
    } catch (e) {
      const err = toApiError(e);
      setError(err.message);
      setStopped(err.field === 'confirmOutOfRange' ? body : undefined);
    }
  };
  return (
    <div className="flex flex-col gap-2 border-t pt-3" data-testid={`field-${f.field}`}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="font-medium">
          {t(fieldLabel(f.field))}
          <span className="text-muted-foreground ml-1 text-xs">{t(`physique:unit.${f.field}`)}</span>
        </label>
        {entry ? (
          <span className="flex items-center gap-2">
            <span className="text-lg font-semibold tabular-nums" data-testid={`entry-${f.field}`}>
              {entry.value}
            </span>
            <EnumBadge table={ENTRY_STATUS_TABLE} value={entry.status} />
          </span>
        ) : null}
      </div>
      {entry?.status === 'confirmed' || entry?.status === 'appealed' ? (
        <div className="text-muted-foreground flex items-center justify-between gap-2 text-xs">
          <span>{t('entryUi.confirmedBy', { name: entry.confirmedBy ?? '—', time: entry.confirmedAt ? time(entry.confirmedAt) : '—' })}</span>
          {canEntry && entry.status === 'confirmed' && !entry.resolvedAt ? (
            <Button size="sm" variant="ghost" onClick={() => onAppeal(entry)} data-testid={`appeal-${f.field}`}>
              <Flag aria-hidden />
              {t('appealUi.action')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {open && canEntry ? (
        <>
          {f.device ? (
            <div className="bg-muted/50 flex items-center justify-between gap-2 rounded-md p-2 text-sm">
              <span className="flex items-center gap-1">
                <Radio aria-hidden className="size-4" />
                {t('entryUi.device', { value: f.device.value, sn: f.device.deviceSn ?? '—' })}
              </span>
              <Button size="sm" variant="outline" onClick={() => void send({ source: 'device', recordId: f.device!.recordId })} data-testid={`accept-${f.field}`}>
                {t('entryUi.accept')}
              </Button>
            </div>
          ) : null}
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (text.trim()) void send({ source: 'typed', value: text });
            }}
          >
            <Input
              id={id}
              value={text}
              onChange={(e) => setText(e.target.value)}
              inputMode="decimal"
              autoComplete="off"
              className="h-11 text-base"
              placeholder={t('entryUi.typePlaceholder')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              data-testid={`input-${f.field}`}
            />
            <Button type="submit" variant="secondary" className="h-11" data-testid={`enter-${f.field}`}>
              {t('entryUi.enter')}
            </Button>
          </form>
          {error ? (
            <div id={`${id}-error`} role="alert" className="text-destructive flex flex-col gap-2 text-sm">
              {error}
              {stopped ? (
                <Button size="sm" variant="destructive" className="self-start" onClick={() => void send(stopped, true)} data-testid={`confirm-range-${f.field}`}>
                  {t('entryUi.confirmRange')}
                </Button>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
      {entry?.status === 'appealed' ? <p className="text-destructive text-xs">{t('appealUi.flagged', { note: entry.appealNote ?? '' })}</p> : null}
      {entry?.resolution ? (
        <p className="text-muted-foreground text-xs">
          {t(entry.resolution === 'keep' ? 'appealUi.resolvedKeep' : 'appealUi.resolvedCorrect', { name: entry.resolvedBy ?? '—', from: entry.originalValue ?? '', to: entry.value })}
        </p>
      ) : null}
    </div>
  );
}

function AppealDialog({ entry, open, onOpenChange, submit }: { entry: EntryView; open: boolean; onOpenChange(o: boolean): void; submit(body: { note: string; videoFileId?: string; version: number }): Promise<unknown> }) {
  const { t } = useTranslation('testDay');
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={entryAppealSchema}
      defaults={{ note: '', videoFileId: '', version: entry.version }}
      title={t('appealUi.title', { field: t(fieldLabel(entry.field)), value: entry.value })}
      submit={submit}
      success={t('appealUi.done')}
      submitText={t('appealUi.action')}
      data-testid="appeal-dialog"
    >
      {() => (
        <>
          <TextareaField name="note" label={t('appealUi.note')} required />
          <UploadField name="videoFileId" label={t('appealUi.video')} purpose="video" maxCount={1} hint={t('appealUi.videoHint')} />
        </>
      )}
    </FormDialog>
  );
}

function ResolveDialog({
  entry,
  open,
  onOpenChange,
  submit,
}: {
  entry: StationView['appeals'][number] | undefined;
  open: boolean;
  onOpenChange(o: boolean): void;
  submit(body: EntryResolve): Promise<unknown>;
}) {
  const { t } = useTranslation('testDay');
  const [outcome, setOutcome] = useState('keep');
  if (!entry) return null;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={entryResolveSchema}
      defaults={{ outcome: 'keep', value: '', note: '', version: entry.version }}
      title={t('appealUi.resolveTitle', { name: entry.name, field: t(fieldLabel(entry.field)), value: entry.value })}
      description={entry.note ?? undefined}
      submit={submit}
      success={t('appealUi.resolvedDone')}
      submitText={t('menus:button.audit')}
      data-testid="resolve-dialog"
    >
      {() => (
        <>
          <RadioField
            name="outcome"
            label={t('appealUi.outcome')}
            required
            onValueChange={setOutcome}
            options={[
              { value: 'keep', label: t('appealUi.keep') },
              { value: 'correct', label: t('appealUi.correct') },
            ]}
          />
          {outcome === 'correct' ? <TextField name="value" label={t('appealUi.newValue')} required inputMode="decimal" /> : null}
          <TextareaField name="note" label={t('appealUi.resolutionNote')} />
        </>
      )}
    </FormDialog>
  );
}
