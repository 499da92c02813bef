/** Demo branding (docs/product-rules.md#branding: platform title, icon, login image): small inline SVGs as data URLs, no files to serve. */

const dataUrl = (svg: string): string => `data:image/svg+xml;base64,${Buffer.from(svg.replace(/\s*\n\s*/g, ' ').trim()).toString('base64')}`;

/** A round badge with a runner's track and a star, in the given colours. */
export function badgeIcon(primary: string, accent: string): string {
  return dataUrl(`
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
      <circle cx="32" cy="32" r="30" fill="${primary}"/>
      <ellipse cx="32" cy="38" rx="20" ry="10" fill="none" stroke="#fff" stroke-width="3"/>
      <ellipse cx="32" cy="38" rx="13" ry="5" fill="none" stroke="${accent}" stroke-width="2"/>
      <path d="M32 9l4.1 8.3 9.1 1.3-6.6 6.4 1.6 9.1L32 29.8l-8.2 4.3 1.6-9.1-6.6-6.4 9.1-1.3z" fill="${accent}"/>
    </svg>`);
}

/** A wide login illustration: sky gradient, a stadium track and lane lines. */
export function loginImage(primary: string, accent: string): string {
  const lanes = Array.from({ length: 6 }, (_, i) => {
    const rx = 520 - i * 40;
    const ry = 170 - i * 14;
    return `<ellipse cx="600" cy="560" rx="${rx}" ry="${ry}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="3"/>`;
  }).join('');
  return dataUrl(`
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800">
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="${primary}"/>
          <stop offset="1" stop-color="#e6f0ff"/>
        </linearGradient>
      </defs>
      <rect width="1200" height="800" fill="url(#sky)"/>
      <circle cx="980" cy="150" r="70" fill="${accent}" fill-opacity="0.85"/>
      <ellipse cx="600" cy="560" rx="560" ry="200" fill="#c8553d"/>
      ${lanes}
      <ellipse cx="600" cy="560" rx="300" ry="80" fill="#3f9b5a"/>
    </svg>`);
}
