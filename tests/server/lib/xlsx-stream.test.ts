import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { xlsxStream } from '../../../server/lib/spreadsheet/xlsx-stream';

/**
 * A streamed workbook whose rows fail part way (the database, or a read replica that dies, mid-export) fails its
 * reader with that error; it must not be an unhandled stream error, which ends the whole server process (seen in
 * tests/cluster when the replica was killed during a score export job).
 */
describe('xlsxStream', () => {
  it('a batch that throws part way rejects the reader with its error', async () => {
    async function* batches() {
      yield [['a', 1]];
      throw new Error('terminating connection due to unexpected postmaster exit');
    }
    const unhandled: unknown[] = [];
    const onError = (err: unknown) => unhandled.push(err);
    process.on('uncaughtException', onError);
    try {
      const workbook = xlsxStream('s', [{ header: 'x' }, { header: 'y' }], batches());
      await expect(buffer(workbook)).rejects.toThrow('unexpected postmaster exit');
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(unhandled).toEqual([]);
  });
});
