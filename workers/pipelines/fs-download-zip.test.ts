import { describe, expect, it } from 'vitest';
import type { FsZipDownload } from '../../contract/transfer';
import { apiAnswer, fakeContext, fakeTransport, type SeenRequest } from '../testing/fakes';
import { fsDownloadZip } from './fs-download-zip';

const api = { baseUrl: 'https://app.test', language: 'en-US' };
const decoder = new TextDecoder();

/** A mount with `/m/a.txt` and `/m/docs/b.txt`; downloads answer each file's name as its bytes, or `status`. */
function mount(statusOf: (path: string) => number = () => 200) {
  return fakeTransport(
    (request: SeenRequest) => {
      const path = new URL(request.url).searchParams.get('path');
      if (request.path.startsWith('/user/fs/get')) return apiAnswer({ size: path!.length, modified: '2024-01-02T03:04:05.000Z' });
      if (request.path.startsWith('/user/fs/list')) {
        return apiAnswer({ path, type: 'directory', isVirtual: false, mountId: 'm', items: [{ name: 'b.txt', path: '/m/docs/b.txt', isDirectory: false, isVirtual: false, size: 13, modified: null, mimetype: null, etag: null }] });
      }
      return apiAnswer(null, 404);
    },
    (url) => {
      const path = new URL(url).searchParams.get('path')!;
      const status = statusOf(path);
      return status === 200 ? new Response(path) : new Response('gone', { status });
    },
  );
}

/** A zip download into a stream, whose bytes end up in `bytes()`. */
function streamSink() {
  const chunks: Uint8Array[] = [];
  const writable = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) });
  return { sink: { kind: 'stream' as const, writable }, text: () => decoder.decode(Buffer.concat(chunks)) };
}

const download = (sink: FsZipDownload['sink']): FsZipDownload => ({ taskId: 'z1', api, paths: ['/m/a.txt', '/m/docs/'], name: 'files.zip', sink });

describe('fsDownloadZip', () => {
  it('streams every selected file, folders walked, into one zip named relative to the selection', async () => {
    const { transport, downloads } = mount();
    const { sink, text } = streamSink();
    const { context } = fakeContext(transport);
    const result = await fsDownloadZip(download(sink), context);

    expect(result).toEqual({ succeeded: ['/m/a.txt', '/m/docs/b.txt'], skipped: [], failed: [] });
    expect(downloads.map((url) => new URL(url).searchParams.get('path'))).toEqual(['/m/a.txt', '/m/docs/b.txt']);
    const zip = text();
    expect(zip.startsWith('PK')).toBe(true);
    // Names inside the zip, then each file's bytes (stored, not compressed).
    expect(zip).toContain('a.txt');
    expect(zip).toContain('docs/b.txt');
    expect(zip).toContain('/m/docs/b.txt');
  });

  it('a file that cannot be read is listed as failed and left out; the others are zipped', async () => {
    const { transport } = mount((path) => (path === '/m/a.txt' ? 404 : 200));
    const { sink, text } = streamSink();
    const { context } = fakeContext(transport);
    const result = await fsDownloadZip(download(sink), context);

    expect(result.succeeded).toEqual(['/m/docs/b.txt']);
    expect(result.failed).toEqual([{ path: '/m/a.txt', error: { code: 'unknown', status: 404 } }]);
    expect(text()).not.toContain('a.txt');
    expect(text()).toContain('/m/docs/b.txt');
  });
});
