import { useEffect, type ReactNode } from 'react';
import { Ban, Loader2, RefreshCw, WifiOff } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { WallAnswer } from '@/domain/data-center/types';
import type { WallConfig } from '@/domain/wall/wall';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { cn } from '@/lib/cn';
import { retryDelayMs, useWallQuery, wallFailures } from '../api/get-wall';
import { isRefusal, WallError } from '../api/wall-client';
import { useRefreshCountdown } from '../hooks/use-countdown';
import { useNow } from '../hooks/use-now';
import { usePlaylist } from '../hooks/use-playlist';
import { useWakeLock } from '../hooks/use-wake-lock';
import { useWallTheme } from '../hooks/use-wall-theme';
import { WallStage } from './wall-stage';

export interface WallScreenProps {
  token: string;
  /** Draws one scene on the 1920 × 1080 canvas (the app composes the data-centre charts and the meet board in). */
  renderScene(answer: WallAnswer, config: WallConfig): ReactNode;
}

// China time wherever the screen's browser is, as everywhere in the console (src/lib/date-time.ts).
const DATE_FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', weekday: 'long', timeZone: ORG_TIME_ZONE };

/** mm:ss of a number of seconds. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The wall display (docs/product-rules.md#wall-display): no menus, the design canvas scaled to the screen, the dark wall theme, the playlist's
 * scenes in rotation, a refresh countdown and "data as of", silent refreshes that keep the old figures, an offline
 * badge while the server cannot be reached (retrying with backoff by itself), and the screen kept awake.
 */
export function WallScreen({ token, renderScene }: WallScreenProps) {
  const { t, i18n } = useTranslation('wall');
  useWallTheme();
  useWakeLock();
  const query = useWallQuery(token);
  const snapshot = query.data;
  const refused = query.error && isRefusal(query.error) ? (query.error as WallError) : null;
  const scenes = snapshot?.scenes ?? [];
  const config = snapshot?.config;
  const index = usePlaylist(scenes.length, (config?.playlist.intervalSeconds ?? 0) * 1000);
  const answer = scenes[index];
  const now = useNow(1000);
  const refreshMs = (config?.playlist.refreshSeconds ?? 0) * 1000;
  const countdown = useRefreshCountdown(query.dataUpdatedAt, refreshMs);
  const offline = Boolean(query.error) && !refused;
  const locale = i18n.language.replace('_', '-');
  const time = (ms: number, seconds = false) =>
    new Date(ms).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: seconds ? '2-digit' : undefined, hour12: false, timeZone: ORG_TIME_ZONE });

  // Back online: refresh at once instead of waiting out the backoff.
  const { refetch } = query;
  useEffect(() => {
    const onOnline = () => void refetch();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [refetch]);

  useEffect(() => {
    const previous = document.title;
    if (config) document.title = `${config.orgName} · ${config.name}`;
    return () => {
      document.title = previous;
    };
  }, [config]);

  const serverNow = now + (snapshot?.clockOffsetMs ?? 0);

  return (
    <WallStage>
      <div
        data-testid="wall-screen"
        data-state={refused ? 'refused' : snapshot ? 'ready' : offline ? 'offline' : 'loading'}
        data-updated-at={query.dataUpdatedAt || undefined}
        className="flex h-full flex-col gap-6 px-12 pt-8 pb-6 text-[24px]"
      >
        {refused ? (
          <Message icon={<Ban className="size-28 text-destructive" aria-hidden />} title={t('refused.title')} testId="wall-refused">
            {refused.message}
          </Message>
        ) : !snapshot || !config ? (
          offline ? (
            <Message icon={<WifiOff className="size-28 text-warning" aria-hidden />} title={t('offline.title')} testId="wall-offline-start">
              {t('offline.retrying', { seconds: Math.ceil(retryIn(token) / 1000) })}
            </Message>
          ) : (
            <Message icon={<Loader2 className="size-28 animate-spin text-primary" aria-hidden />} title={t('loading')} testId="wall-loading" />
          )
        ) : (
          <>
            <header className="flex items-end justify-between gap-8 border-b border-border pb-5">
              <div className="min-w-0">
                <p className="truncate text-[28px] text-muted-foreground" data-testid="wall-org">
                  {config.orgName} · {config.meet ? t('scene.meetBoard') : answer ? periodText(t, answer) : ''}
                </p>
                <h1 className="truncate text-[56px] leading-tight font-bold" data-testid="wall-scene-title">
                  {config.meet ? config.meet.name : answer ? t(`scene.${answer.scene}`) : config.name}
                </h1>
              </div>
              <div className="shrink-0 text-right">
                <p className="text-[64px] leading-none font-semibold tabular-nums" data-testid="wall-clock">
                  {time(serverNow)}
                </p>
                <p className="mt-2 text-[24px] text-muted-foreground">
                  {new Date(serverNow).toLocaleDateString(locale, DATE_FORMAT)}
                </p>
              </div>
            </header>
            <main className="relative min-h-0 flex-1" data-testid="wall-scene" data-scene={answer?.scene} data-index={index}>
              {answer ? (
                <div key={answer.scene} className="h-full animate-fade-in">
                  {renderScene(answer, config)}
                </div>
              ) : null}
            </main>
            <footer className="flex items-center justify-between gap-6 text-[24px] text-muted-foreground">
              <span className="flex items-center gap-6">
                <span data-testid="wall-as-of">{t('asOf', { time: answer ? time(Date.parse(answer.asOf)) : '—' })}</span>
                {offline ? (
                  <span
                    data-testid="wall-offline"
                    className="inline-flex items-center gap-2 rounded-full bg-warning px-4 py-1 text-[22px] font-semibold text-warning-foreground"
                  >
                    <WifiOff aria-hidden className="size-6" />
                    {t('offline.badge', { seconds: Math.ceil(retryIn(token) / 1000) })}
                  </span>
                ) : null}
              </span>
              <SceneDots count={scenes.length} index={index} />
              <span className="flex items-center gap-2 tabular-nums" data-testid="wall-countdown" data-seconds={countdown}>
                <RefreshCw aria-hidden className={cn('size-6', query.isFetching && 'animate-spin')} />
                {query.isFetching ? t('refreshing') : t('nextRefresh', { time: formatCountdown(countdown) })}
              </span>
            </footer>
          </>
        )}
      </div>
    </WallStage>
  );
}

/** The backoff before the next automatic attempt (shown on the offline badge). */
function retryIn(token: string): number {
  return retryDelayMs(wallFailures(token));
}

function periodText(t: TFunction, answer: WallAnswer): string {
  if (!('period' in answer)) return '';
  const { academicYear, semesterCode, planName } = answer.period;
  if (!academicYear) return t('period.none');
  const year = semesterCode ? t('period.yearSemester', { year: academicYear, semester: t(`semester.${semesterCode}`) }) : t('period.year', { year: academicYear });
  return planName ? `${year} · ${planName}` : year;
}

function SceneDots({ count, index }: { count: number; index: number }) {
  const { t } = useTranslation('wall');
  if (count < 2) return <span />;
  return (
    <span role="img" className="flex items-center gap-3" aria-label={t('sceneOf', { index: index + 1, total: count })} data-testid="wall-dots">
      {Array.from({ length: count }, (_, i) => (
        <span key={i} className={cn('h-3 rounded-full transition-all', i === index ? 'w-12 bg-primary' : 'w-3 bg-muted-foreground/50')} />
      ))}
    </span>
  );
}

function Message({ icon, title, children, testId }: { icon: ReactNode; title: string; children?: ReactNode; testId: string }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-8 text-center" data-testid={testId}>
      {icon}
      <h1 className="text-[64px] font-bold">{title}</h1>
      {children ? <p className="max-w-[1200px] text-[32px] text-muted-foreground">{children}</p> : null}
    </div>
  );
}
