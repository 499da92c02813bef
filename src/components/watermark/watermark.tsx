import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Watermark as WatermarkInfo } from '@/domain/data-access/data-access';
import { familyApi, familyOfKey } from '@/domain/menus/access';
import { get } from '@/lib/api-client';

/** A minute: the time drawn follows the clock without redrawing the screen more often. */
const TICK_MS = 60_000;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One tile of the watermark: the two lines, turned, as an SVG the overlay repeats. */
export function watermarkTile(lines: readonly string[]): string {
  const text = lines.map((line, i) => `<text x="0" y="${i * 22}">${escapeXml(line)}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><g transform="translate(40 130) rotate(-22)" font-family="sans-serif" font-size="15" fill="rgb(120,120,120)" fill-opacity="0.16">${text}</g></svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

const two = (n: number) => String(n).padStart(2, '0');
const stamp = (d: Date) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;

/**
 * The viewer's name, account and the time tiled lightly over a screen of personal data when the organisation's
 * `watermark` setting is on (docs/product-rules.md#personal-data-access): it takes no clicks (pointer-events none) and
 * sits inside the screen, so the sign-in page never has one. Declared by the kits (`personalData` on ListScreen and
 * FormScreen), not by screens.
 */
export function Watermark({ pageKey }: { pageKey: string }) {
  const family = familyOfKey(pageKey);
  const { data } = useQuery({
    queryKey: ['watermark', family],
    queryFn: () => get<WatermarkInfo>(`${familyApi(family!)}/data-access/watermark`),
    enabled: family !== null,
    staleTime: 5 * TICK_MS,
  });
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(id);
  }, []);
  if (!data?.on) return null;
  return (
    <div
      aria-hidden
      data-testid="watermark"
      data-text={`${data.name} ${data.account}`}
      className="pointer-events-none absolute inset-0 z-40 select-none print:fixed"
      style={{ backgroundImage: watermarkTile([`${data.name} ${data.account}`, stamp(now)]), backgroundRepeat: 'repeat' }}
    />
  );
}
