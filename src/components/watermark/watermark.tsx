import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { Watermark as WatermarkInfo } from '@/domain/data-access/data-access';
import { familyApi, familyOfTypePath } from '@/domain/menus/access';
import { get } from '@/lib/api-client';
import { uinfoAtom } from '@/lib/store';

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
 * `watermark` setting is on (docs/product-rules.md#personal-data-access). The shell draws it once for the routes
 * declared personal (PERSONAL_DATA_SCREENS in src/app/routes/screens.ts), not the screens. It covers the whole
 * window above dialogs and drawers (fixed, z-60: a record opened in a dialog is marked too, a lock screen is above)
 * and takes no clicks (pointer-events none); in print it repeats on every page, with the background printed even when
 * the browser leaves backgrounds out. Its data come from the session's own family (the shared /single screens too).
 */
export function Watermark() {
  const typePath = useAtomValue(uinfoAtom)?.currentTypePath;
  const family = typePath ? familyOfTypePath(typePath) : null;
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
      className="pointer-events-none fixed inset-0 z-[60] select-none"
      style={{
        backgroundImage: watermarkTile([`${data.name} ${data.account}`, stamp(now)]),
        backgroundRepeat: 'repeat',
        printColorAdjust: 'exact',
        WebkitPrintColorAdjust: 'exact',
      }}
    />
  );
}
