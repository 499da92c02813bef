import { timeOrderedUuid } from '../../lib/ids';
import { CopyText } from './bulk-session';

/** Bytes per COPY chunk handed to the driver. */
const CHUNK_BYTES = 1 << 20;
const UUID_CHARS = 36;

/**
 * A first import's rows, held in memory until its one write transaction COPYs them straight into physique_results
 * (docs/decisions/028-score-import-at-copy-speed.md). The rows' COPY text is written value by value into `text`'s
 * chunks outside the JS heap; per row only its place, its class, its incoming-field mask and a sort key (the student
 * id's first 48 bits) in typed arrays. The rows are written in student order with ids drawn then, so the keys on
 * (plan, student) and the time-ordered primary key both grow at one end, as the write floor's COPY does.
 */
export class HeldRows {
  /** The rows' text, each without its id and the columns `lines`' tail adds. */
  readonly text = new CopyText();
  private chunk = new Uint32Array(1024);
  private start = new Uint32Array(1024);
  private end = new Uint32Array(1024);
  private incoming = new Uint32Array(1024);
  private cls = new Uint32Array(1024);
  private key = new Float64Array(1024);
  /** The rows' classes; a row keeps its class's index. */
  private readonly classes: string[] = [];
  private readonly classIndex = new Map<string, number>();
  size = 0;

  /** Bytes of COPY text held. */
  get bytes(): number {
    return this.text.bytes;
  }

  /** Ends a row whose text was just written into `text` (after `text.row()`). */
  add(studentId: string, classId: string, incoming: number): void {
    if (this.size === this.key.length) this.grow();
    const i = this.size++;
    this.chunk[i] = this.text.rowChunk;
    this.start[i] = this.text.rowStart;
    this.end[i] = this.text.at;
    this.incoming[i] = incoming;
    let c = this.classIndex.get(classId);
    if (c === undefined) {
      this.classIndex.set(classId, (c = this.classes.length));
      this.classes.push(classId);
    }
    this.cls[i] = c;
    this.key[i] = parseInt(studentId.slice(0, 8), 16) * 65536 + parseInt(studentId.slice(9, 13), 16);
  }

  /** The class ids of the rows. */
  classIds(): readonly string[] {
    return this.classes;
  }

  /**
   * COPY text of every row in student order: a new id, a tab, the row's text, then `tail` of the row (its class id and
   * incoming mask given), which ends the line.
   */
  *lines(tail: (classId: string, incoming: number) => Uint8Array): Generator<Uint8Array<ArrayBuffer>> {
    const key = this.key;
    const order = new Uint32Array(this.size);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => key[a] - key[b]);
    const parts = this.text.parts();
    let out = Buffer.allocUnsafe(CHUNK_BYTES);
    let at = 0;
    for (const i of order) {
      const text = parts[this.chunk[i]];
      const s = this.start[i];
      const e = this.end[i];
      const end = tail(this.classes[this.cls[i]], this.incoming[i]);
      const need = UUID_CHARS + 1 + (e - s) + end.length;
      if (at + need > out.length) {
        if (at > 0) yield out.subarray(0, at);
        out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
        at = 0;
      }
      at += out.write(timeOrderedUuid(), at, 'latin1');
      out[at++] = 9; // tab
      at += text.copy(out, at, s, e);
      out.set(end, at);
      at += end.length;
    }
    if (at > 0) yield out.subarray(0, at);
  }

  private grow(): void {
    const n = this.key.length * 2;
    const grown = <A extends Uint32Array | Float64Array>(a: A, b: A): A => (b.set(a), b);
    this.chunk = grown(this.chunk, new Uint32Array(n));
    this.start = grown(this.start, new Uint32Array(n));
    this.end = grown(this.end, new Uint32Array(n));
    this.incoming = grown(this.incoming, new Uint32Array(n));
    this.cls = grown(this.cls, new Uint32Array(n));
    this.key = grown(this.key, new Float64Array(n));
  }
}
