import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';

/**
 * The font every PDF of the console prints in (meet certificates and books, test-day sheets, the exemption form, the
 * graduation record card): Noto Sans SC, embedded by pdf-lib as a subset (only the characters printed): register
 * `patchedFontkit` on the document, then embed `loadFont(weight)` with `{ subset: true }`.
 */
const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;
/** The font files (10 MB each) are read once per process, when first needed. */
const fontBytes = new Map<keyof typeof FONT_FILES, Promise<Buffer>>();
export function loadFont(weight: keyof typeof FONT_FILES): Promise<Buffer> {
  let bytes = fontBytes.get(weight);
  if (!bytes) {
    bytes = readFile(require.resolve(FONT_FILES[weight]));
    bytes.catch(() => fontBytes.delete(weight));
    fontBytes.set(weight, bytes);
  }
  return bytes;
}

/**
 * @pdf-lib/fontkit 1.1.1 writes a subset's `loca` table in the short format without padding odd-length glyph records,
 * so every glyph after the first odd one is read from the wrong offset and prints blank (most of Noto Sans SC). The long
 * format needs no padding; fixed upstream in fontkit 1.8 (foliojs/fontkit#191), which the pdf-lib fork predates.
 */
type SubsetProto = { _addGlyph(this: { loca: { version?: number } }, gid: number): number; longLoca?: true };
export const patchedFontkit: typeof fontkit = {
  ...fontkit,
  create(bytes: Uint8Array, postscriptName?: string) {
    const font = fontkit.create(bytes, postscriptName);
    const proto = Object.getPrototypeOf(font.createSubset()) as SubsetProto;
    if (!proto.longLoca && typeof proto._addGlyph === 'function') {
      const add = proto._addGlyph;
      proto._addGlyph = function (gid) {
        this.loca.version ??= 1;
        return add.call(this, gid);
      };
      proto.longLoca = true;
    }
    return font;
  },
};
