import { useTranslation } from 'react-i18next';
import { usesLanes, type EventType } from '@/domain/meets/meets';
import { clockOf } from '@/domain/meets/schedule';
import type { Arrangement } from '../api';
import { RelayLegs, useHeatTitle } from './heat-parts';

export interface SheetEvent {
  type: EventType;
  lanes: number;
  attempts: number;
}

/** A4 pages for the sheets while they are mounted. */
const PAGE_CSS = '@media print { @page { size: A4 portrait; margin: 12mm; } }';
const CELL = 'border border-black px-2 py-2';

/** Field events give each athlete at least three attempts on paper. */
const MIN_ATTEMPTS = 3;

/**
 * Start lists / heat sheets and field score sheets for print (A4, one page per heat or flight, docs/product-rules.md#meets):
 * hidden on screen, the only thing printed from the arrange screen. A track heat lists every lane (empty lanes too)
 * with blank result and place cells; a field flight lists the order with a blank cell per attempt, best and place.
 */
export function HeatSheets({ meetName, data, eventOf }: { meetName: string; data: Arrangement; eventOf(eventId: string): SheetEvent | undefined }) {
  const { t } = useTranslation('meets');
  const title = useHeatTitle();
  const heats = data.heats.filter((h) => h.athletes.length);
  return (
    <div className="hidden text-black print:block" data-testid="heat-sheets">
      <style>{PAGE_CSS}</style>
      {heats.map((h) => {
        const event = eventOf(h.eventId);
        const track = event ? usesLanes(event.type) : h.type === 'track' || h.type === 'relay';
        const attempts = Math.max(event?.attempts ?? MIN_ATTEMPTS, MIN_ATTEMPTS);
        const rows = track ? Array.from({ length: Math.max(event?.lanes ?? 0, ...h.athletes.map((a) => a.lane)) }, (_, i) => ({ lane: i + 1, athlete: h.athletes.find((a) => a.lane === i + 1) })) : h.athletes.map((a) => ({ lane: a.lane, athlete: a }));
        const when = h.startMin != null ? `${data.days[h.day ?? 0]} ${clockOf(h.startMin)}` : '';
        const cell = CELL;
        return (
          <section key={h.id} className="break-after-page" data-testid="heat-sheet">
            <header className="mb-3 flex items-end justify-between gap-4 border-b-2 border-black pb-2">
              <div>
                <p className="text-sm">{meetName}</p>
                <h2 className="text-xl font-bold">{title(h)}</h2>
              </div>
              <div className="text-right text-sm">
                <p>{track ? t('sheet.startList') : t('sheet.fieldSheet')}</p>
                <p>{when}</p>
              </div>
            </header>
            <table className="w-full border-collapse text-sm">
              <thead>
                <tr>
                  <th className={`${cell} w-14`}>{track ? t('heat.lane') : t('heat.order')}</th>
                  <th className={`${cell} w-20`}>{t('heat.bib')}</th>
                  <th className={`${cell} whitespace-nowrap`}>{t('heat.name')}</th>
                  <th className={`${cell} whitespace-nowrap`}>{t('heat.className')}</th>
                  {track ? (
                    <th className={`${cell} w-28`}>{t('score.mark')}</th>
                  ) : (
                    Array.from({ length: attempts }, (_, i) => (
                      <th key={i} className={`${cell} w-16`}>
                        {t('sheet.attempt', { no: i + 1 })}
                      </th>
                    ))
                  )}
                  {track ? null : <th className={`${cell} w-20`}>{t('sheet.best')}</th>}
                  <th className={`${cell} w-14`}>{t('score.place')}</th>
                  <th className={`${cell} w-24`}>{t('sheet.note')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ lane, athlete }) => (
                  <tr key={lane}>
                    <td className={`${cell} text-center font-mono`}>{lane}</td>
                    <td className={`${cell} text-center font-mono`}>{athlete?.bib ?? ''}</td>
                    <td className={`${cell} whitespace-nowrap`}>
                      {athlete?.name ?? ''}
                      {athlete ? <RelayLegs members={athlete.members} /> : null}
                    </td>
                    <td className={`${cell} whitespace-nowrap`}>{athlete?.className ?? ''}</td>
                    {Array.from({ length: track ? 1 : attempts + 1 }, (_, i) => (
                      <td key={i} className={cell} />
                    ))}
                    <td className={cell} />
                    <td className={cell} />
                  </tr>
                ))}
              </tbody>
            </table>
            <footer className="mt-8 flex justify-between text-sm">
              <span>{t('sheet.referee')} ________________</span>
              <span>{t('sheet.recorder')} ________________</span>
              <span>{t('sheet.time')} ________________</span>
            </footer>
          </section>
        );
      })}
    </div>
  );
}
