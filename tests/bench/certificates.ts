// `npm run bench -- certificates [N]` (default 1000): N certificates issued as one PDF, then as a zip of one PDF each
// (server/modules/meets/certificate-pdf.ts), in the same run. Target (docs/performance.md): the zip ≤ 1.5× the one PDF. The zip
// is the PDF drawn first and then split, as the certificate job does, so its time includes the PDF's.
// Data: a background JPEG and a stamp embedded once, eight texts per page in Noto Sans SC (regular and bold), names
// drawn from a few hundred different characters so the font subset is the size a real school's is.
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { unzipSync } from 'fflate';
import { DEFAULT_CERTIFICATE_FIELDS, type CertificateValues } from '../../src/domain/meets/documents';
import { certificateFileNames, certificatesPdf, certificatesZip } from '../../server/modules/meets/certificate-pdf';

const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1000);
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂文辉玲华红鹏飞鑫波宇浩凯瑞晨轩子涵欣怡梓萱雨泽博睿思佳琪嘉雪梦婷俊豪天翔一诺可馨语彤宏志建国海燕丹阳晓慧颖春松林峰健德成龙';
const EVENTS = ['100米', '200米', '400米', '800米', '1500米', '跳远', '跳高', '铅球', '实心球', '4×100米接力'];
const list: CertificateValues[] = Array.from({ length: N }, (_, i) => ({
  name: `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}${i % 3 ? GIVEN[(i * 13 + 5) % GIVEN.length] : ''}`,
  className: `${'初高'[i % 2]}${'一二三'[(i >> 1) % 3]}(${(i % 12) + 1})班`,
  event: `${i % 2 ? '女子组' : '男子组'} ${EVENTS[i % EVENTS.length]}`,
  place: `第${(i % 8) + 1}名`,
  mark: `${(12 + (i % 50) / 10).toFixed(2)}秒`,
  date: '2026年11月24日',
  meet: '2026年秋季田径运动会',
}));
const background = await sharp({ create: { width: 1754, height: 1240, channels: 3, background: '#fffaf0' } }).jpeg().toBuffer();
const stamp = await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.8 } } }).png().toBuffer();
const layout = {
  orientation: 'landscape' as const,
  fields: [...DEFAULT_CERTIFICATE_FIELDS, { field: 'text' as const, x: 148.5, y: 60, size: 40, color: '#b91c1c', align: 'center' as const, bold: true, text: '荣誉证书' }],
  stampX: 225,
  stampY: 158,
  stampSize: 36,
};
const images = { background: { bytes: background, mime: 'image/jpeg' }, stamp };
const names = certificateFileNames(list.map((v, i) => ({ event: v.event, place: (i % 8) + 1, name: v.name })));
const files = list.map((v, i) => ({ fileName: names[i], row: [v.name, v.className, v.event, v.place, v.mark] }));
const header = ['file', 'name', 'className', 'event', 'place', 'mark'];

async function onePdf() {
  const s = performance.now();
  const bytes = await certificatesPdf(layout, images, list);
  return { ms: performance.now() - s, bytes };
}
async function zip() {
  const s = performance.now();
  const pdf = await certificatesPdf(layout, images, list);
  const drawn = performance.now() - s;
  const bytes = await certificatesZip(pdf, files, header);
  return { ms: performance.now() - s, drawn, bytes };
}

await certificatesPdf(layout, images, list.slice(0, 5)); // warm-up: the font files are read once per process
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
// Alternated rounds, the median of each (the machine is shared: one round alone says little).
const ROUNDS = 3;
const pdfs: Awaited<ReturnType<typeof onePdf>>[] = [];
const zips: Awaited<ReturnType<typeof zip>>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  pdfs.push(await onePdf());
  zips.push(await zip());
}
const median = <T extends { ms: number }>(runs: T[]) => [...runs].sort((a, b) => a.ms - b.ms)[runs.length >> 1];
const p = median(pdfs);
const z = median(zips);
console.log(`${N} certificates, ${ROUNDS} alternated rounds, medians; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
console.log(`  one PDF: ${p.ms.toFixed(0)} ms, ${mib(p.bytes.length)} (rounds ${pdfs.map((x) => x.ms.toFixed(0)).join(', ')} ms)`);
console.log(`  zip:     ${z.ms.toFixed(0)} ms (drawing ${z.drawn.toFixed(0)} ms, splitting ${(z.ms - z.drawn).toFixed(0)} ms), ${mib(z.bytes.length)}, ${N + 1} files (rounds ${zips.map((x) => x.ms.toFixed(0)).join(', ')} ms)`);
console.log(`  ratio zip / one PDF: ${(z.ms / p.ms).toFixed(2)}× (target ≤ 1.5×); splitting alone / one PDF: ${((z.ms - z.drawn) / p.ms).toFixed(2)}×`);
const entries = unzipSync(z.bytes);
if (Object.keys(entries).length !== N + 1) throw new Error(`the zip holds ${Object.keys(entries).length} files, not ${N + 1}`);
if (process.argv.includes('--out')) {
  const { writeFile } = await import('node:fs/promises');
  const dir = process.argv[process.argv.indexOf('--out') + 1];
  for (const [i, name] of names.slice(0, 3).entries()) await writeFile(`${dir}/cert${i}.pdf`, entries[name]);
  await writeFile(`${dir}/zip-last.pdf`, entries[names[N - 1]]);
  await writeFile(`${dir}/all.pdf`, p.bytes);
  await writeFile(`${dir}/all.zip`, z.bytes);
}
if (z.ms / p.ms > 1.5) process.exitCode = 1;
