import { useTranslation } from 'react-i18next';
import type { LessonsSceneData } from '@/domain/lesson-load/reports';

function Tile({ label, value, tone }: { label: string; value: number; tone?: 'success' | 'primary' }) {
  const { i18n } = useTranslation();
  const color = tone === 'success' ? 'text-success' : tone === 'primary' ? 'text-primary' : '';
  return (
    <div className="flex flex-col justify-center gap-3 rounded-2xl border bg-card px-8 py-6">
      <span className="text-[30px] text-muted-foreground">{label}</span>
      <span className={`text-[88px] leading-none font-bold tabular-nums ${color}`}>{value.toLocaleString(i18n.language.replace('_', '-'))}</span>
    </div>
  );
}

/**
 * The wall's scene of today's PE lessons with heart-rate bands (docs/product-rules.md#lesson-load: reports): lessons
 * in progress and finished, those meeting the targets, and each class's (a district's: school's) mean bpm and
 * individual density. The answer holds no student, so no name can show.
 */
export function LessonsWallScene({ data }: { data: LessonsSceneData }) {
  const { t, i18n } = useTranslation('wall');
  const locale = i18n.language.replace('_', '-');
  const pct = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const rows = data.rows.slice(0, 10);
  return (
    <div className="grid h-full grid-rows-[auto_minmax(0,1fr)] gap-6" data-testid="wall-lessons">
      <div className="grid grid-cols-3 gap-6">
        <Tile label={t('lessons.inProgress')} value={data.inProgress} tone="primary" />
        <Tile label={t('lessons.finished')} value={data.finished} />
        <Tile label={t('lessons.meetsTargets')} value={data.meetsTargets} tone="success" />
      </div>
      {rows.length ? (
        <div className="min-h-0 overflow-hidden rounded-2xl border bg-card p-6">
          <table className="w-full text-[28px]">
            <thead className="text-muted-foreground">
              <tr>
                <th className="text-left font-medium">{t(data.unit === 'school' ? 'lessons.unitSchool' : 'lessons.unitClass')}</th>
                <th className="text-right font-medium">{t('lessons.inProgress')}</th>
                <th className="text-right font-medium">{t('lessons.finished')}</th>
                <th className="text-right font-medium">{t('lessons.meanBpm')}</th>
                <th className="text-right font-medium">{t('lessons.density')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name} className="border-t">
                  <td className="py-2">{r.name}</td>
                  <td className="text-right tabular-nums">{r.inProgress}</td>
                  <td className="text-right tabular-nums">{r.finished}</td>
                  <td className="text-right tabular-nums">{r.meanBpm == null ? '—' : Math.round(r.meanBpm)}</td>
                  <td className="text-right tabular-nums">{r.density == null ? '—' : pct.format(r.density)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="self-center text-center text-[32px] text-muted-foreground">{t('lessons.empty')}</p>
      )}
    </div>
  );
}
