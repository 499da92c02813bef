import { timeOrderedUuid } from '../../lib/ids';

/** Bytes per COPY chunk handed to the driver. */
const CHUNK_BYTES = 1 << 20;
/** A row's COPY text starts with its student id and class id (36 characters each, a tab after each). */
const CLASS_ID_AT = 37;
const UUID_CHARS = 36;

/**
 * A first import's rows, held in memory until its one write transaction COPYs them straight into physique_results
 * (docs/decisions/028-score-import-at-copy-speed.md). Each slice's COPY text (ASCII: ids, numbers, codes) is kept as one
 * buffer outside the JS heap; per row only its place, its incoming-field mask and a sort key (the student id's first
 * 48 bits) in typed arrays. The rows are written in student order with ids drawn then, so the keys on (plan, student)
 * and the time-ordered primary key both grow at one end, as the write floor's COPY does.
 */
export class HeldRows {
  private readonly slices: Buffer[] = [];
  private slice = new Uint32Array(1024);
  private start = new Uint32Array(1024);
  private end = new Uint32Array(1024);
  private incoming = new Uint32Array(1024);
  private key = new Float64Array(1024);
  private sliceStart = 0;
  size = 0;
  /** Bytes of COPY text held. */
  bytes = 0;

  /** A row of the slice being built: its text ends at `end` of the slice's text (starting with the student and class ids). */
  add(end: number, studentId: string, incoming: number): void {
    if (this.size === this.key.length) this.grow();
    const i = this.size++;
    this.slice[i] = this.slices.length;
    this.start[i] = this.sliceStart;
    this.end[i] = end;
    this.incoming[i] = incoming;
    this.key[i] = parseInt(studentId.slice(0, 8), 16) * 65536 + parseInt(studentId.slice(9, 13), 16);
    this.sliceStart = end;
  }

  /** Ends the slice whose rows were added: its text is kept as bytes. */
  endSlice(text: string): void {
    if (this.sliceStart > 0) {
      // Offsets are the string's characters, so its bytes must be one each (they are: ids, numbers, codes, t/f).
      if (Buffer.byteLength(text) !== text.length) throw new Error('held import rows must be ASCII');
      this.slices.push(Buffer.from(text, 'latin1'));
      this.bytes += text.length;
    }
    this.sliceStart = 0;
  }

  /** The class ids of the rows. */
  classIds(): Set<string> {
    const ids = new Set<string>();
    for (let i = 0; i < this.size; i++) {
      const s = this.start[i];
      ids.add(this.slices[this.slice[i]].toString('latin1', s + CLASS_ID_AT, s + CLASS_ID_AT + UUID_CHARS));
    }
    return ids;
  }

  /**
   * COPY text of every row in student order: a new id, a tab, the row's text, then `tail` of the row (its class id and
   * incoming mask given), which ends the line.
   */
  *lines(tail: (classId: string, incoming: number) => Buffer): Generator<Uint8Array<ArrayBuffer>> {
    const key = this.key;
    const order = new Uint32Array(this.size);
    for (let i = 0; i < order.length; i++) order[i] = i;
    order.sort((a, b) => key[a] - key[b]);
    let out = Buffer.allocUnsafe(CHUNK_BYTES);
    let at = 0;
    for (const i of order) {
      const text = this.slices[this.slice[i]];
      const s = this.start[i];
      const e = this.end[i];
      const end = tail(text.toString('latin1', s + CLASS_ID_AT, s + CLASS_ID_AT + UUID_CHARS), this.incoming[i]);
      const need = UUID_CHARS + 1 + (e - s) + end.length;
      if (at + need > out.length) {
        if (at > 0) yield out.subarray(0, at);
        out = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
        at = 0;
      }
      at += out.write(timeOrderedUuid(), at, 'latin1');
      out[at++] = 9; // tab
      at += text.copy(out, at, s, e);
      at += end.copy(out, at);
    }
    if (at > 0) yield out.subarray(0, at);
  }

  private grow(): void {
    const n = this.key.length * 2;
    const grown = <A extends Uint32Array | Float64Array>(a: A, b: A): A => (b.set(a), b);
    this.slice = grown(this.slice, new Uint32Array(n));
    this.start = grown(this.start, new Uint32Array(n));
    this.end = grown(this.end, new Uint32Array(n));
    this.incoming = grown(this.incoming, new Uint32Array(n));
    this.key = grown(this.key, new Float64Array(n));
  }
}
