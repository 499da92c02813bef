import fontkit, { type Font } from '@pdf-lib/fontkit';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { ORG_TYPE } from '@/domain/constants';
import { certificateSaveSchema, DEFAULT_CERTIFICATE_FIELDS, DEFAULT_CERTIFICATE_STAMP } from '@/domain/meets/documents';
import type { Storage } from '../lib/storage/storage';
import { saveUpload } from '../modules/files/files.service';
import { loadFont } from '../lib/pdf-fonts';
import { addPhotos, createCertificate, createStamp, setCaption } from '../modules/meets/documents.service';
import type { Actor } from '../plugins/tenant';
import type { Db } from '../db/client';
import { users } from '../db/schema/auth';
import { meetStamps, meets } from '../db/schema/meets';
import { orgs } from '../db/schema/orgs';

/**
 * The demo school's meet documents (docs/product-rules.md#meet-documents): two e-stamps (red round seals drawn with the
 * school's name), a certificate template printing one of them, and three style photos of the finished spring meet.
 * They need the file store, so the server adds them right after seeding a fresh database (server/main.ts), through the
 * same file and document services an upload takes; the test database's seed stays without them.
 */

const RED = '#d0021b';

/** SVG path data of `text` in Noto Sans SC Bold, `size` px, centred on (0, 0) with its baseline a little below. */
function glyphPaths(font: Font, text: string, size: number): string {
  const scale = size / font.unitsPerEm;
  const run = font.layout(text);
  const width = run.glyphs.reduce((w, g) => w + g.advanceWidth, 0) * scale;
  let x = -width / 2;
  return run.glyphs
    .map((g) => {
      const d = `<path transform="translate(${x.toFixed(2)} ${(size * 0.36).toFixed(2)}) scale(${scale} ${-scale})" d="${g.path.toSVG()}"/>`;
      x += g.advanceWidth * scale;
      return d;
    })
    .join('');
}

/** A 400 × 400 transparent PNG seal: ring, the school's name along the top arc, a star, the seal's use below. */
export async function sealPng(font: Font, schoolName: string, use: string): Promise<Buffer> {
  const chars = [...schoolName];
  const step = Math.min(24, 250 / chars.length);
  const arc = chars
    .map((c, i) => {
      const deg = -90 + (i - (chars.length - 1) / 2) * step;
      const rad = (deg * Math.PI) / 180;
      const [x, y] = [200 + 138 * Math.cos(rad), 200 + 138 * Math.sin(rad)];
      return `<g transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) rotate(${deg + 90})">${glyphPaths(font, c, 46)}</g>`;
    })
    .join('');
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? 24 : 60;
    const a = ((-90 + i * 36) * Math.PI) / 180;
    return `${(200 + r * Math.cos(a)).toFixed(2)},${(200 + r * Math.sin(a)).toFixed(2)}`;
  }).join(' ');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
    <g fill="${RED}" fill-opacity="0.9">
      <circle cx="200" cy="200" r="186" fill="none" stroke="${RED}" stroke-width="12"/>
      ${arc}
      <polygon points="${star}"/>
      <g transform="translate(200 300)">${glyphPaths(font, use, 34)}</g>
    </g>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An A4 landscape certificate background (150 dpi): cream paper, a red and gold double border. */
async function backgroundPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1754" height="1240">
    <rect width="1754" height="1240" fill="#fffaf0"/>
    <rect x="50" y="50" width="1654" height="1140" fill="none" stroke="#b91c1c" stroke-width="18"/>
    <rect x="86" y="86" width="1582" height="1068" fill="none" stroke="#d4a017" stroke-width="6"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

/** A 1280 × 720 "photo" of the meet: sky, stands, a red track with white lanes, in the scene's colours. */
async function stylePhoto(sky: string, lanes: number): Promise<Buffer> {
  const lines = Array.from({ length: lanes + 1 }, (_, i) => `<line x1="${-200 + i * 60}" y1="720" x2="${520 + i * 30}" y2="420" stroke="#fff" stroke-width="4"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#e0f2fe"/></linearGradient></defs>
    <rect width="1280" height="720" fill="url(#s)"/>
    <rect y="300" width="1280" height="120" fill="#475569"/>
    <polygon points="0,720 0,420 1280,420 1280,720" fill="#c2410c"/>
    ${lines}
    <rect y="640" width="1280" height="80" fill="#15803d"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Adds the documents when the demo school has no stamp yet (so it runs once); false when there was nothing to do. */
export async function seedMeetDocumentsDemo(db: Db, storage: Storage, now: Date): Promise<boolean> {
  const [school] = await db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code)).limit(1);
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
  if (!school || !admin) return false;
  if ((await db.$count(meetStamps, eq(meetStamps.orgId, school.id))) > 0) return false;
  const [spring] = await db.select({ id: meets.id }).from(meets).where(and(eq(meets.orgId, school.id), eq(meets.name, '2026年春季田径运动会')));
  const actor: Actor = { userId: admin.id, accountId: admin.id, orgId: school.id, tenantOrgId: school.id, roleId: admin.id, orgType: ORG_TYPE.k12, permissions: new Set(), dataScope: 'org' };
  const owner = { orgId: school.id, userId: admin.id };

  const font = fontkit.create(await loadFont('bold'));
  const sealFiles = [
    await saveUpload(db, storage, owner, 'stamp', '体育组公章.png', await sealPng(font, school.name, '体育组'), now),
    await saveUpload(db, storage, owner, 'stamp', '运动会专用章.png', await sealPng(font, school.name, '运动会专用章'), now),
  ];
  const background = await saveUpload(db, storage, owner, 'certificate', '证书底图.png', await backgroundPng(), now);
  const photos = [
    { name: '男子100米起跑.jpg', sky: '#38bdf8', lanes: 8, caption: '男子组100米决赛起跑' },
    { name: '跳远.jpg', sky: '#0ea5e9', lanes: 4, caption: '男子组跳远' },
    { name: '女子100米冲线.jpg', sky: '#7dd3fc', lanes: 6, caption: '女子组100米冲线瞬间' },
  ];
  const photoFiles: { id: string }[] = [];
  for (const p of photos) photoFiles.push(await saveUpload(db, storage, owner, 'style', p.name, await stylePhoto(p.sky, p.lanes), now));

  await db.transaction(async (tx) => {
    await createStamp(tx, actor, { name: '体育组公章', fileId: sealFiles[0].id });
    const meetSeal = await createStamp(tx, actor, { name: '运动会专用章', fileId: sealFiles[1].id });
    await createCertificate(
      tx,
      actor,
      certificateSaveSchema.parse({
        name: '运动会获奖证书',
        orientation: 'landscape',
        backgroundFileId: background.id,
        fields: [...DEFAULT_CERTIFICATE_FIELDS, { field: 'text', x: 148.5, y: 60, size: 40, color: '#b91c1c', align: 'center', bold: true, text: '荣誉证书' }],
        stampId: meetSeal.id,
        ...DEFAULT_CERTIFICATE_STAMP,
      }),
    );
    if (!spring) return;
    const added = await addPhotos(tx, actor, spring.id, photoFiles.map((f) => f.id), now);
    for (const [i, row] of added.entries()) await setCaption(tx, actor, spring.id, row.id, { caption: photos[i].caption });
  });
  return true;
}
