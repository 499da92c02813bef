import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LEVEL_BANDS } from '@/domain/constants';
import type { AppNotificationList, AppReport, AppReportItem, AppReportRow, ItemBands } from '@/domain/parent-reports/parent-reports';
import { formatRaw } from '@/domain/physique-results/export-layout';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { useDateTime } from '@/lib/date-time';
import { AppApiError, appGet, appPost, appSignIn, appSignOut, appToken } from '../app-client';

/**
 * /m/report: the mobile page where a parent (or the student) signs in with the app account and reads each child's
 * released physique reports (docs/product-rules.md#physique-year, "Reports parents read"): the standard's bands drawn
 * as a bar per item, last year beside this year, the items to improve, curated advice and the notifications. Made for a
 * phone held in one hand (390 px wide up), outside the console.
 */
export function ParentReportScreen() {
  const { t } = useTranslation('parentReports');
  useDocumentTitle(t('page.title'));
  const [signedIn, setSignedIn] = useState(() => appToken() !== null);
  return (
    <div className="min-h-dvh bg-muted/40 text-foreground">
      <main className="mx-auto flex w-full max-w-xl flex-col gap-4 px-3 py-4">
        {signedIn ? <Reports onSignedOut={() => setSignedIn(false)} /> : <SignIn onSignedIn={() => setSignedIn(true)} />}
      </main>
    </div>
  );
}

function SignIn({ onSignedIn }: { onSignedIn(): void }) {
  const { t } = useTranslation('parentReports');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const signIn = useMutation({ mutationFn: () => appSignIn(account.trim(), password), onSuccess: onSignedIn, onError: (e) => setError(e.message) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!account.trim() || !password) return setError(t('page.required'));
    setError('');
    signIn.mutate();
  };
  return (
    <>
      <header className="flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t('page.title')}</h1>
        <LanguageSwitch />
      </header>
      <form onSubmit={submit} className="flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-xs" data-testid="app-sign-in" noValidate>
        <div>
          <h2 className="text-base font-semibold">{t('page.signInTitle')}</h2>
          <p className="mt-1 text-sm text-muted-foreground">{t('page.signInText')}</p>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="app-account">{t('page.account')}</Label>
          <Input id="app-account" autoComplete="username" value={account} onChange={(e) => setAccount(e.target.value)} className="h-11" />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="app-password">{t('page.password')}</Label>
          <Input id="app-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} className="h-11" />
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive" data-testid="app-sign-in-error">
            {error}
          </p>
        )}
        <Button type="submit" size="lg" loading={signIn.isPending} data-testid="app-sign-in-submit">
          {signIn.isPending ? t('page.signingIn') : t('page.signIn')}
        </Button>
      </form>
    </>
  );
}

/** Query keys carry the language: the server words the advice and notifications in it. */
const keyOf = (lang: string, ...rest: unknown[]) => ['appReports', lang, ...rest];

function Reports({ onSignedOut }: { onSignedOut(): void }) {
  const { t, i18n } = useTranslation(['parentReports', 'physique']);
  const lang = i18n.language;
  const client = useQueryClient();
  const list = useQuery({ queryKey: keyOf(lang, 'list'), queryFn: () => appGet<AppReportRow[]>('reports'), retry: false });
  const notes = useQuery({ queryKey: keyOf(lang, 'notifications'), queryFn: () => appGet<AppNotificationList>('notifications'), retry: false });
  const [picked, setPicked] = useState<{ studentId: string; planId: string } | null>(null);
  const failure = list.error ?? notes.error;
  useEffect(() => {
    if (failure instanceof AppApiError && failure.status === 401) onSignedOut();
  }, [failure, onSignedOut]);

  // The children, in the order of their newest report; a report opens the child's newest unless one was picked.
  const children = useMemo(() => {
    const seen = new Map<string, AppReportRow>();
    for (const r of list.data ?? []) if (!seen.has(r.studentId)) seen.set(r.studentId, r);
    return [...seen.values()];
  }, [list.data]);
  const current = picked ?? (children[0] ? { studentId: children[0].studentId, planId: children[0].planId } : null);
  const plansOfChild = (list.data ?? []).filter((r) => r.studentId === current?.studentId);

  const signOut = async () => {
    await appSignOut().catch(() => undefined);
    client.removeQueries({ queryKey: ['appReports'] });
    onSignedOut();
  };

  return (
    <>
      <header className="flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t('page.title')}</h1>
        <div className="flex items-center gap-2">
          <LanguageSwitch className="w-28" />
          <Button variant="outline" size="sm" onClick={() => void signOut()} data-testid="app-sign-out">
            <LogOut aria-hidden />
            {t('page.signOut')}
          </Button>
        </div>
      </header>
      {failure && !(failure instanceof AppApiError && failure.status === 401) && (
        <p role="alert" className="rounded-lg border border-destructive/40 bg-card p-3 text-sm text-destructive">
          {t('page.loadFailed', { message: failure.message })}
        </p>
      )}
      {notes.data && <Notifications data={notes.data} onOpen={(studentId, planId) => setPicked({ studentId, planId })} lang={lang} />}
      {list.isPending && <p className="text-sm text-muted-foreground">{t('page.loading')}</p>}
      {list.data && list.data.length === 0 && (
        <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground" data-testid="app-no-reports">
          {t('page.noReports')}
        </p>
      )}
      {children.length > 1 && (
        <nav aria-label={t('page.child')} className="flex gap-2 overflow-x-auto" data-testid="app-children">
          {children.map((c) => (
            <Button
              key={c.studentId}
              variant={c.studentId === current?.studentId ? 'default' : 'outline'}
              aria-pressed={c.studentId === current?.studentId}
              onClick={() => setPicked({ studentId: c.studentId, planId: c.planId })}
            >
              {c.studentName}
            </Button>
          ))}
        </nav>
      )}
      {current && plansOfChild.length > 1 && (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="app-plan">{t('page.report')}</Label>
          <select
            id="app-plan"
            value={current.planId}
            onChange={(e) => setPicked({ studentId: current.studentId, planId: e.target.value })}
            className="h-10 rounded-md border border-input bg-background px-3 text-sm"
            data-testid="app-plan"
          >
            {plansOfChild.map((p) => (
              <option key={p.planId} value={p.planId}>
                {p.planName}
              </option>
            ))}
          </select>
        </div>
      )}
      {current && <ReportView studentId={current.studentId} planId={current.planId} lang={lang} />}
    </>
  );
}

function Notifications({ data, onOpen, lang }: { data: AppNotificationList; onOpen(studentId: string, planId: string): void; lang: string }) {
  const { t } = useTranslation('parentReports');
  const client = useQueryClient();
  const dateTime = useDateTime('short');
  const read = useMutation({
    mutationFn: (id: string) => appPost(`notifications/${encodeURIComponent(id)}/read`),
    onSuccess: () => client.invalidateQueries({ queryKey: keyOf(lang, 'notifications') }),
  });
  return (
    <section aria-labelledby="app-notifications-title" className="rounded-xl border bg-card p-3 shadow-xs" data-testid="app-notifications">
      <h2 id="app-notifications-title" className="flex items-center gap-2 text-base font-semibold">
        <Bell aria-hidden className="size-4" />
        {t('page.notifications')}
        {data.unread > 0 && (
          <Badge variant="destructive" data-testid="app-unread">
            {t('page.unread', { count: data.unread })}
          </Badge>
        )}
      </h2>
      {data.records.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">{t('page.noNotifications')}</p>
      ) : (
        <ul className="mt-2 flex max-h-56 flex-col divide-y overflow-y-auto">
          {data.records.map((n) => (
            <li key={n.id} className="flex flex-col gap-1 py-2" data-testid="app-notification">
              <div className="flex items-start justify-between gap-2">
                <p className={cn('text-sm', !n.readAt && 'font-semibold')}>{n.title}</p>
                <span className="shrink-0 text-xs text-muted-foreground">{dateTime(n.createdAt)}</span>
              </div>
              <p className="text-sm text-muted-foreground">{n.text}</p>
              <div className="flex gap-2">
                {n.studentId && n.planId && (
                  <Button
                    variant="link"
                    size="sm"
                    className="h-auto px-0"
                    onClick={() => {
                      onOpen(n.studentId!, n.planId!);
                      if (!n.readAt) read.mutate(n.id);
                    }}
                  >
                    {t('page.open')}
                  </Button>
                )}
                {!n.readAt && (
                  <Button variant="ghost" size="sm" className="h-auto px-1" onClick={() => read.mutate(n.id)} data-testid="app-mark-read">
                    {t('page.markRead')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const LEVEL_VARIANT = { excellent: 'success', good: 'success', pass: 'warning', fail: 'destructive', normal: 'success', lowWeight: 'warning', overweight: 'warning', obese: 'destructive' } as const;

function ReportView({ studentId, planId, lang }: { studentId: string; planId: string; lang: string }) {
  const { t } = useTranslation(['parentReports', 'physique']);
  const date = useDateTime('medium');
  const report = useQuery({
    queryKey: keyOf(lang, 'report', studentId, planId),
    queryFn: () => appGet<AppReport>(`reports/${encodeURIComponent(studentId)}?planId=${encodeURIComponent(planId)}`),
    retry: false,
  });
  if (report.isPending) return <p className="text-sm text-muted-foreground">{t('page.loading')}</p>;
  if (report.error) return <p role="alert" className="text-sm text-destructive">{t('page.loadFailed', { message: report.error.message })}</p>;
  const r = report.data;
  return (
    <article className="flex flex-col gap-3" aria-labelledby="app-report-title" data-testid="app-report">
      <section className="rounded-xl border bg-card p-4 shadow-xs">
        <h2 id="app-report-title" className="text-lg font-semibold">
          {r.student.name}
        </h2>
        <p className="text-sm text-muted-foreground">
          {r.student.orgName} · {r.student.className} · {t('page.grade', { grade: r.plan.gradeNo })}
        </p>
        <p className="mt-1 text-sm">{r.plan.name}</p>
        <p className="text-xs text-muted-foreground">
          {r.plan.testedOn ? `${t('page.testedOn', { date: r.plan.testedOn })} · ` : ''}
          {t('page.releasedAt', { date: date(r.plan.releasedAt) })}
        </p>
        <div className="mt-3 flex items-end gap-3">
          <div>
            <p className="text-xs text-muted-foreground">{t('page.total')}</p>
            <p className="text-4xl font-bold tabular-nums" data-testid="app-total">
              {r.total ?? '—'}
            </p>
          </div>
          {r.level && (
            <Badge variant={LEVEL_VARIANT[r.level]} className="mb-1.5">
              {t(`physique:level.${r.level}`)}
            </Badge>
          )}
        </div>
        <p className="mt-1 text-xs text-muted-foreground" data-testid="app-last-year">
          {r.lastYear ? t('page.lastYearTotal', { year: r.lastYear.academicYear, total: r.lastYear.total ?? '—' }) : t('page.noLastYear')}
        </p>
      </section>

      <section className="rounded-xl border bg-card p-4 shadow-xs" aria-labelledby="app-improve-title" data-testid="app-improve">
        <h2 id="app-improve-title" className="text-base font-semibold">
          {t('page.improve')}
        </h2>
        {r.improve.length === 0 ? (
          <p className="mt-1 text-sm text-muted-foreground">{t('page.improveNone')}</p>
        ) : (
          <ul className="mt-2 flex flex-wrap gap-2">
            {r.improve.map((item) => (
              <li key={item}>
                <Badge variant="warning">{t(`physique:item.${item}`)}</Badge>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="app-items-title" className="flex flex-col gap-3">
        <h2 id="app-items-title" className="px-1 text-base font-semibold">
          {t('page.items')}
        </h2>
        {r.items.map((item) => (
          <ItemCard key={item.item} item={item} />
        ))}
      </section>
    </article>
  );
}

/** A raw value with its unit, long runs as 3'40". */
function useValue() {
  const { t } = useTranslation('physique');
  return (item: AppReportItem['item'], raw: number | null) => {
    if (raw == null) return '—';
    const shown = formatRaw(item, raw, 'display');
    return typeof shown === 'string' ? shown : `${shown} ${t(`unit.${item}`)}`;
  };
}

function ItemCard({ item }: { item: AppReportItem }) {
  const { t } = useTranslation(['parentReports', 'physique']);
  const value = useValue();
  const levelText = (level: AppReportItem['level']) => (level ? t(item.item === 'bmi' ? `physique:bmiLevel.${level}` : `physique:level.${level}`) : t('page.notTested'));
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs" data-testid={`app-item-${item.item}`}>
      <div className="flex items-start justify-between gap-2">
        <h3 className="font-semibold">{t(`physique:item.${item.item}`)}</h3>
        <div className="flex items-center gap-1.5">
          {item.improve && <Badge variant="outline">{t('page.improveTag')}</Badge>}
          {item.level && <Badge variant={LEVEL_VARIANT[item.level]}>{levelText(item.level)}</Badge>}
        </div>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">{t('page.thisYear')}</dt>
          <dd className="font-medium tabular-nums">
            {value(item.item, item.raw)}
            {item.score != null && <span className="ml-1 text-muted-foreground">({t('page.score', { score: item.score })})</span>}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">{t('page.lastYear')}</dt>
          <dd className="tabular-nums" data-testid="app-item-last-year">
            {item.lastYear ? (
              <>
                {value(item.item, item.lastYear.raw)}
                {item.lastYear.score != null && <span className="ml-1 text-muted-foreground">({t('page.score', { score: item.lastYear.score })})</span>}
              </>
            ) : (
              '—'
            )}
          </dd>
        </div>
      </dl>
      {item.bands && <BandBar item={item} bands={item.bands} />}
      {item.advice && (
        <p className="mt-3 rounded-md bg-muted p-2.5 text-sm" data-testid="app-advice">
          <span className="block text-xs font-medium text-muted-foreground">{t('page.advice')}</span>
          {item.advice}
        </p>
      )}
    </div>
  );
}

/**
 * The standard's bands of the item as a bar: fail, pass, good and excellent on the score axis (0–100, the levels'
 * limits of LEVEL_BANDS), with this year's score as a marker and last year's as a hollow one; below it the raw
 * values each band needs for the child's grade and gender. BMI: its four bands, the value's band marked.
 */
function BandBar({ item, bands }: { item: AppReportItem; bands: ItemBands }) {
  const { t } = useTranslation(['parentReports', 'physique']);
  const value = useValue();
  if (bands.kind === 'bmi') {
    const order = ['lowWeight', 'normal', 'overweight', 'obese'] as const;
    const tone = { lowWeight: 'bg-warning/60', normal: 'bg-success/70', overweight: 'bg-warning/60', obese: 'bg-destructive/60' };
    return (
      <div className="mt-3">
        <div className="flex h-3 overflow-hidden rounded-full" role="img" aria-label={`${t('physique:item.bmi')}: ${item.level ? t(`physique:bmiLevel.${item.level}`) : t('page.notTested')}`}>
          {order.map((b) => (
            <div key={b} className={cn('relative flex-1', tone[b], item.level === b && 'ring-2 ring-foreground ring-inset')} />
          ))}
        </div>
        <div className="mt-1 grid grid-cols-4 text-center text-[11px] leading-tight text-muted-foreground">
          <span>{`${t('physique:bmiLevel.lowWeight')} ≤${bands.lowWeightMax}`}</span>
          <span>{`${bands.normalMin}–${bands.normalMax}`}</span>
          <span>{`${bands.overweightMin}–${(bands.obeseMin - 0.1).toFixed(1)}`}</span>
          <span>{`≥${bands.obeseMin}`}</span>
        </div>
      </div>
    );
  }
  const pct = (score: number | null | undefined) => (score == null ? null : Math.max(0, Math.min(100, score)));
  const now = pct(item.score);
  const last = pct(item.lastYear?.score);
  const segments = [
    { from: 0, to: LEVEL_BANDS.pass, tone: 'bg-destructive/35' },
    { from: LEVEL_BANDS.pass, to: LEVEL_BANDS.good, tone: 'bg-warning/50' },
    { from: LEVEL_BANDS.good, to: LEVEL_BANDS.excellent, tone: 'bg-success/45' },
    { from: LEVEL_BANDS.excellent, to: 100, tone: 'bg-success/80' },
  ];
  const label = t('page.barLabel', { item: t(`physique:item.${item.item}`), score: item.score ?? '—', last: item.lastYear?.score ?? '—' });
  return (
    <div className="mt-3">
      <div className="relative h-3" role="img" aria-label={label} data-testid="app-band-bar">
        <div className="flex h-3 overflow-hidden rounded-full">
          {segments.map((s) => (
            <div key={s.from} className={s.tone} style={{ width: `${s.to - s.from}%` }} />
          ))}
        </div>
        {last != null && <span className="absolute top-1/2 size-3 -translate-1/2 rounded-full border-2 border-foreground/60 bg-card" style={{ left: `${last}%` }} />}
        {now != null && <span className="absolute top-1/2 h-5 w-1.5 -translate-1/2 rounded-sm bg-foreground" style={{ left: `${now}%` }} />}
      </div>
      <div className="mt-1.5 flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-muted-foreground">
        <span>{t('page.passAt', { value: value(item.item, bands.pass) })}</span>
        <span>{t('page.goodAt', { value: value(item.item, bands.good) })}</span>
        <span>{t('page.excellentAt', { value: value(item.item, bands.excellent) })}</span>
        <span>{bands.lowerIsBetter ? t('page.lowerIsBetter') : t('page.higherIsBetter')}</span>
      </div>
    </div>
  );
}
