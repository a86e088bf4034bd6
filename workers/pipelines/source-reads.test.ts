import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FsClientCopy, FsReadGroup } from '../../contract/fs';
import { readSource, type SourceRead } from '../transport/source-io';
import { readAfter, readGroupAfter, readUnits } from './source-reads';

/** Reads as a courier does, here in the test's thread. */
const read = (what: SourceRead, _uses: number, signal: AbortSignal) => readSource(what, signal);

/**
 * Three small files on a real HTTP server: each at `/file/{name}`, a group of them at `/group` (or a broken one), and
 * at `/slow-group` one whose answer waits for the test (handed to `slowGroupAsked`).
 */
const files = { a: Buffer.from('first file'), b: Buffer.from(''), c: Buffer.from('the third file, longest of all') };
type Name = keyof typeof files;

describe('reading a copy group', () => {
  let server: Server;
  let origin: string;
  const requests: string[] = [];
  let slowGroupAsked: (response: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      requests.push(path);
      if (path === '/group') return response.end(Buffer.concat(Object.values(files)));
      if (path === '/short-group') return response.end(files.a);
      if (path === '/slow-group') return slowGroupAsked(response);
      const name = path.replace('/file/', '') as Name;
      if (!(name in files)) return response.writeHead(404).end();
      response.end(files[name]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const copyOf = (name: Name | 'large'): FsClientCopy => ({
    sourcePath: `/local/${name}`,
    targetPath: `/s3/${name}`,
    targetMountId: 'mount',
    fileSize: name === 'large' ? 6 * 1024 * 1024 : files[name].length,
    contentType: 'application/octet-stream',
    downloadUrl: `${origin}/file/${name}`,
    s3Path: name,
    upload: name === 'large' ? { kind: 'multipart', uploadId: 'u', partSize: 5 * 1024 * 1024, partCount: 2 } : { kind: 'put', url: `${origin}/put/${name}` },
  });
  let copies: FsClientCopy[];
  beforeAll(() => {
    copies = (['a', 'b', 'c'] as const).map(copyOf);
  });
  const groupAt = (path: string): FsReadGroup => ({ url: `${origin}${path}`, size: copies.reduce((sum, copy) => sum + copy.fileSize, 0), sourcePaths: copies.map((copy) => copy.sourcePath) });
  const texts = (reads: { read: Promise<Blob | undefined> }[]) => Promise.all(reads.map(async ({ read }) => (await read)?.text()));

  it('slices one answer into each file’s exact bytes, in order, with one request', async () => {
    requests.length = 0;
    const reads = readGroupAfter(undefined, groupAt('/group'), copies, new AbortController().signal, read);
    expect(reads.map(({ copy }) => copy.sourcePath)).toEqual(['/local/a', '/local/b', '/local/c']);
    expect(await texts(reads)).toEqual(['first file', '', 'the third file, longest of all']);
    expect(requests).toEqual(['/group']);
  });

  it('reads the files one by one from their own URLs when the group answers other than its size', async () => {
    requests.length = 0;
    const reads = readGroupAfter(undefined, groupAt('/short-group'), copies, new AbortController().signal, read);
    expect(await texts(reads)).toEqual(['first file', '', 'the third file, longest of all']);
    expect(requests).toEqual(['/short-group', '/file/a', '/file/b', '/file/c']);
  });

  it('fails a file whose answer is not the size the plan gave it (changed since, or sent encoded)', async () => {
    const changed = { ...copies[0]!, fileSize: files.a.length + 1 };
    await expect(readAfter(undefined, changed, new AbortController().signal, read)).rejects.toMatchObject({ code: 'upload_failed', serverMessage: 'download size' });
  });

  it('stops at a cancel without reading any file alone', async () => {
    requests.length = 0;
    const cancel = new AbortController();
    const asked = new Promise<ServerResponse>((resolve) => (slowGroupAsked = resolve));
    const reads = readGroupAfter(undefined, groupAt('/slow-group'), copies, cancel.signal, read);
    // Cancelled while the server holds its answer: the reads end without it.
    const answer = await asked;
    cancel.abort();
    await expect(reads[0]!.read).rejects.toMatchObject({ code: 'cancelled' });
    await Promise.allSettled(reads.map(({ read }) => read));
    answer.end();
    expect(requests).toEqual(['/slow-group']);
  });

  it('queues a group whole where its first file stood, and never uses a group that does not match the plan', () => {
    const [a, b, c] = copies as [FsClientCopy, FsClientCopy, FsClientCopy];
    const large = copyOf('large');
    const group = { url: 'g', size: a.fileSize + c.fileSize, sourcePaths: [a.sourcePath, c.sourcePath] };
    expect(readUnits([a, large, b, c], [group])).toEqual([{ group, copies: [a, c] }, { copy: large }, { copy: b }]);
    const wrongSize = { ...group, size: 1 };
    const withLarge = { url: 'g', size: a.fileSize + large.fileSize, sourcePaths: [a.sourcePath, large.sourcePath] };
    const unknown = { url: 'g', size: a.fileSize, sourcePaths: ['/local/elsewhere'] };
    for (const bad of [wrongSize, withLarge, unknown]) expect(readUnits([a, large], [bad])).toEqual([{ copy: a }, { copy: large }]);
  });
});
