import { useTranslation } from 'react-i18next';
import { WARNING_KINDS, type WarningsSceneData } from '@/domain/warnings/warnings';

function Tile({ label, value, tone }: { label: string; value: number; tone?: 'warning' | 'success' }) {
  const { i18n } = useTranslation();
  return (
    <div className="flex flex-col justify-center gap-3 rounded-2xl border bg-card px-8 py-6">
      <span className="text-[30px] text-muted-foreground">{label}</span>
      <span className={tone === 'warning' ? 'text-[88px] leading-none font-bold tabular-nums text-warning' : tone === 'success' ? 'text-[88px] leading-none font-bold tabular-nums text-success' : 'text-[88px] leading-none font-bold tabular-nums'}>
        {value.toLocaleString(i18n.language.replace('_', '-'))}
      </span>
    </div>
  );
}

/**
 * The wall's warnings scene (docs/product-rules.md#warnings): counts of warnings by kind and of follow-up cases, a
 * district's per school; never a student (the answer has no names to show).
 */
export function WarningsWallScene({ data }: { data: WarningsSceneData }) {
  const { t } = useTranslation('warnings');
  const { counts } = data;
  return (
    <div className="grid h-full grid-rows-[auto_auto_minmax(0,1fr)] gap-6" data-testid="wall-warnings">
      <div className="grid grid-cols-4 gap-6">
        {WARNING_KINDS.map((k) => (
          <Tile key={k} label={t(`kind.${k}`)} value={counts.byKind[k]} />
        ))}
      </div>
      <div className="grid grid-cols-3 gap-6">
        <Tile label={t('wall.students')} value={counts.students} />
        <Tile label={t('wall.open')} value={counts.openCases} tone="warning" />
        <Tile label={t('wall.closed')} value={counts.closedCases} tone="success" />
      </div>
      {data.schools.length ? (
        <div className="min-h-0 overflow-hidden rounded-2xl border bg-card p-6">
          <table className="w-full text-[28px]">
            <thead className="text-muted-foreground">
              <tr>
                <th className="text-left font-medium">{t('card.school')}</th>
                <th className="text-right font-medium">{t('wall.students')}</th>
                <th className="text-right font-medium">{t('wall.open')}</th>
                <th className="text-right font-medium">{t('wall.closed')}</th>
              </tr>
            </thead>
            <tbody>
              {data.schools.map((s) => (
                <tr key={s.orgName} className="border-t">
                  <td className="py-2">{s.orgName}</td>
                  <td className="text-right tabular-nums">{s.students}</td>
                  <td className="text-right tabular-nums">{s.openCases}</td>
                  <td className="text-right tabular-nums">{s.closedCases}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="self-end text-[24px] text-muted-foreground">{t('wall.note')}</p>
      )}
    </div>
  );
}
