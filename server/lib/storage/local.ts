import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { blobKey, type ByteRange, type Storage } from './storage';

/** Files under one local directory (STORAGE_DIR): `blobs/`, `tus/` (uploads in progress), `tmp/`. */
export async function localStorage(directory: string): Promise<Storage> {
  const root = resolve(directory);
  const tusDir = join(root, 'tus');
  const tmpDir = join(root, 'tmp');
  await mkdir(tusDir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const tus = new FileStore({ directory: tusDir });
  const blobPath = (hash: string) => join(root, blobKey(hash));
  const uploadPath = (id: string) => {
    const path = join(tusDir, id);
    if (dirname(path) !== tusDir) throw new Error(`bad upload id: ${id}`);
    return path;
  };
  const open = (path: string, range?: ByteRange): Promise<Readable> =>
    new Promise((res, rej) => {
      const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
      stream.once('open', () => res(stream));
      stream.once('error', rej);
    });

  return {
    kind: 'local',
    tus,
    async putBlob(hash, body) {
      const target = blobPath(hash);
      await mkdir(dirname(target), { recursive: true });
      // Write aside, then rename: a reader never sees half a blob.
      const tmp = join(tmpDir, randomUUID());
      await writeFile(tmp, body);
      await rename(tmp, target);
    },
    readBlob: (hash, range) => open(blobPath(hash), range),
    async hasBlob(hash) {
      return stat(blobPath(hash)).then(
        () => true,
        () => false,
      );
    },
    async removeBlob(hash) {
      await rm(blobPath(hash), { force: true });
    },
    readUpload: (id) => open(uploadPath(id)),
    async adoptUpload(id, hash) {
      const target = blobPath(hash);
      await mkdir(dirname(target), { recursive: true });
      await rename(uploadPath(id), target);
      await tus.configstore.delete(id);
    },
    async removeUpload(id) {
      await rm(uploadPath(id), { force: true });
      await rm(`${uploadPath(id)}.json`, { force: true });
    },
    async close() {},
  };
}
