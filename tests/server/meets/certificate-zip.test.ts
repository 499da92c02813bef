import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CERTIFICATE_FIELDS, type CertificateValues } from '@/domain/meets/documents';
import { certificatesPdf, certificatesZip } from '../../../server/modules/meets/certificate-pdf';

// The zip writes every file from one reused document (its font subset copied once): each file must still hold its
// own certificate's page only, with the same whole font program, whatever came before it.
const values = (name: string, event: string): CertificateValues => ({ name, className: '初一(1)班', event, place: '第1名', mark: '12.30秒', date: '2026年11月24日', meet: '秋季运动会' });
const list = [values('张三', '男子组 100米'), values('欧阳思雨', '女子组 跳远'), values('李四', '男子组 铅球')];

const contentsOf = (doc: PDFDocument, page: number) => {
  const contents = doc.getPage(page).node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return Buffer.concat(refs.map((r) => Buffer.from(decodePDFRawStream(doc.context.lookup(r as PDFRef) as PDFRawStream).decode()))).toString('latin1');
};
const fontPrograms = (doc: PDFDocument) =>
  doc.context
    .enumerateIndirectObjects()
    .filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of('FontFile2')))
    .map(([, o]) => Buffer.from(decodePDFRawStream(doc.context.lookup((o as PDFDict).get(PDFName.of('FontFile2')) as PDFRef) as PDFRawStream).decode()).toString('base64'))
    .sort();

describe('certificate zip', () => {
  it('gives each file its own certificate’s page and the whole shared font subset, nothing of the other pages', async () => {
    const layout = { orientation: 'landscape' as const, fields: DEFAULT_CERTIFICATE_FIELDS, stampX: null, stampY: null, stampSize: null };
    const pdf = await certificatesPdf(layout, { background: null, stamp: null }, list);
    const files = list.map((v, i) => ({ fileName: `${i}.pdf`, row: [v.name] }));
    const zip = unzipSync(new Uint8Array(await certificatesZip(pdf, files, ['file', 'name'])));
    const all = await PDFDocument.load(pdf);
    const docs = await Promise.all(files.map((f) => PDFDocument.load(zip[f.fileName])));
    for (const [i, doc] of docs.entries()) {
      expect(doc.getPageCount()).toBe(1);
      expect(contentsOf(doc, 0)).toBe(contentsOf(all, i));
      expect(fontPrograms(doc)).toEqual(fontPrograms(all));
      // No object left over from an earlier file: every file has as many objects as the first.
      expect(doc.context.enumerateIndirectObjects().length).toBe(docs[0].context.enumerateIndirectObjects().length);
    }
    expect(new Set(docs.map((d) => contentsOf(d, 0))).size).toBe(list.length);
  });
});
