import { createHash, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteNotFoundError, type RemoteFileSystem } from './remote-fs';

export interface RemoteSubject {
  fs: RemoteFileSystem;
  /** A folder of the server that exists and is empty, e.g. `/contract`. */
  base: string;
  /**
   * The folder on this machine the server serves as its `/`, where it has one: the 10,000 files of the listing
   * test are then made there directly (what is tested is the listing; writing them one by one over the protocol
   * took minutes).
   */
  directory?: string;
  stop(): Promise<void>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Bytes in chunks of 64 KiB, as a request body arrives. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
    })(),
  );

/** What every protocol's RemoteFileSystem must do, run against a real server of that protocol. */
export function describeRemoteFileSystem(name: string, start: () => Promise<RemoteSubject>) {
  describe(`${name} remote file system`, () => {
    let subject: RemoteSubject;
    let fs: RemoteFileSystem;
    const at = (path: string) => `${subject.base}/${path}`;
    beforeAll(async () => {
      subject = await start();
      fs = subject.fs;
    }, 60_000);
    afterAll(async () => {
      await subject?.fs.close();
      await subject?.stop();
    });

    it('writes a stream and reads it back whole and by range, with size and time', async () => {
      const bytes = randomBytes(300_000);
      await fs.write(at('a.bin'), chunked(bytes));
      expect(sha256(await readAll(await fs.read(at('a.bin'))))).toBe(sha256(bytes));
      expect(await readAll(await fs.read(at('a.bin'), { start: 1000, end: 1999 }))).toEqual(bytes.subarray(1000, 2000));
      expect(await readAll(await fs.read(at('a.bin'), { start: 299_990, end: 299_999 }))).toEqual(bytes.subarray(299_990));
      const entry = await fs.stat(at('a.bin'));
      expect(entry).toMatchObject({ name: 'a.bin', kind: 'file', size: 300_000 });
      expect(entry?.modified?.getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    });

    it('writes an empty file and replaces a file', async () => {
      await fs.write(at('empty.txt'), Readable.from([]));
      expect(await fs.stat(at('empty.txt'))).toMatchObject({ kind: 'file', size: 0 });
      await fs.write(at('empty.txt'), Readable.from([Buffer.from('now full')]));
      expect((await readAll(await fs.read(at('empty.txt')))).toString()).toBe('now full');
    });

    it('streams a file of 24 MiB byte-identical', async () => {
      const bytes = randomBytes(24 * 1024 * 1024);
      await fs.write(at('big.bin'), chunked(bytes));
      expect((await fs.stat(at('big.bin')))?.size).toBe(bytes.length);
      expect(sha256(await readAll(await fs.read(at('big.bin'))))).toBe(sha256(bytes));
      await fs.remove(at('big.bin'));
    }, 120_000);

    it('says nothing is there: stat undefined, read throws RemoteNotFoundError, list of a missing folder empty', async () => {
      expect(await fs.stat(at('missing.txt'))).toBeUndefined();
      await expect(fs.read(at('missing.txt'))).rejects.toBeInstanceOf(RemoteNotFoundError);
      expect(await fs.list(at('no-such-folder'))).toEqual([]);
    });

    it('makes folders, lists children with their kinds, names of every script', async () => {
      await fs.mkdir(at('docs'));
      await fs.mkdir(at('docs')); // again: not an error
      await fs.mkdir(at('docs/inner folder'));
      for (const file of ['报告 2026.txt', 'with space.md', 'émoji-😀.txt']) {
        await fs.write(at(`docs/${file}`), Readable.from([Buffer.from(file)]));
      }
      const listed = await fs.list(at('docs'));
      expect(listed.map((entry) => [entry.name, entry.kind]).sort()).toEqual(
        [
          ['inner folder', 'folder'],
          ['报告 2026.txt', 'file'],
          ['with space.md', 'file'],
          ['émoji-😀.txt', 'file'],
        ].sort(),
      );
      expect(listed.find((entry) => entry.name === 'with space.md')?.size).toBe('with space.md'.length);
      expect(await fs.stat(at('docs/inner folder'))).toMatchObject({ kind: 'folder' });
      expect((await readAll(await fs.read(at('docs/报告 2026.txt')))).toString()).toBe('报告 2026.txt');
    });

    it('renames a file, replacing the target', async () => {
      await fs.write(at('from.txt'), Readable.from([Buffer.from('from')]));
      await fs.write(at('to.txt'), Readable.from([Buffer.from('old')]));
      await fs.rename(at('from.txt'), at('to.txt'));
      expect(await fs.stat(at('from.txt'))).toBeUndefined();
      expect((await readAll(await fs.read(at('to.txt')))).toString()).toBe('from');
    });

    it('copies on the server where the protocol can', async () => {
      if (!fs.copy) return;
      await fs.write(at('original.txt'), Readable.from([Buffer.from('copy me')]));
      await fs.copy(at('original.txt'), at('copied.txt'));
      expect((await readAll(await fs.read(at('copied.txt')))).toString()).toBe('copy me');
      expect((await readAll(await fs.read(at('original.txt')))).toString()).toBe('copy me');
    });

    it('removes files and whole folders; missing ones are not an error', async () => {
      await fs.mkdir(at('tree'));
      await fs.mkdir(at('tree/a'));
      await fs.write(at('tree/a/x.txt'), Readable.from([Buffer.from('x')]));
      await fs.write(at('tree/y.txt'), Readable.from([Buffer.from('y')]));
      await fs.remove(at('tree/y.txt'));
      await fs.remove(at('tree/y.txt'));
      expect(await fs.stat(at('tree/y.txt'))).toBeUndefined();
      await fs.removeFolder(at('tree'));
      await fs.removeFolder(at('tree'));
      expect(await fs.stat(at('tree'))).toBeUndefined();
    });

    it('lists a folder of 10,000 files', async () => {
      await fs.mkdir(at('many'));
      const names = Array.from({ length: 10_000 }, (_, index) => `f-${String(index).padStart(5, '0')}.txt`);
      const { directory } = subject;
      if (directory) {
        for (const file of names) writeFileSync(join(directory, subject.base, 'many', file), '1');
      } else {
        for (let index = 0; index < names.length; index += 50) {
          await Promise.all(names.slice(index, index + 50).map((file) => fs.write(at(`many/${file}`), Readable.from([Buffer.from('1')]))));
        }
      }
      const listed = await fs.list(at('many'));
      expect(listed.map((entry) => entry.name).sort()).toEqual(names);
      // Removing a tree through the driver is tested above; 10,000 deletes one by one would only cost CI minutes.
      if (directory) rmSync(join(directory, subject.base, 'many'), { recursive: true, force: true });
      else await fs.removeFolder(at('many'));
    }, 300_000);

    it('serves parallel requests over its pool', async () => {
      const bytes = await Promise.all(Array.from({ length: 12 }, () => randomBytes(50_000)));
      await Promise.all(bytes.map((content, index) => fs.write(at(`p-${index}.bin`), Readable.from([content]))));
      const back = await Promise.all(bytes.map(async (_, index) => readAll(await fs.read(at(`p-${index}.bin`)))));
      expect(back.map(sha256)).toEqual(bytes.map(sha256));
    });
  });
}
