import { describe, expect, it } from 'vitest';
import type { UrlShareUpload } from '../../contract/transfer';
import { TransferFailure } from '../engine/failure';
import { answer, apiAnswer, fakeContext, fakeTransport, stagesOf, type SeenRequest } from '../testing/fakes';
import type { HttpResponse } from '../transport/http';
import { urlUpload } from './url-upload';

const api = { baseUrl: 'https://app.test', language: 'en-US', authorization: 'ApiKey k' };
const command: UrlShareUpload = { taskId: 'u1', api, url: 'https://source.test/report', options: { expires_in: 24, max_views: 0 } };
const info = { url: 'https://source.test/report.txt', filename: 'report.txt', size: 5, contentType: 'text/plain', corsAllowed: true };
const presign = { upload_url: 'https://storage.test/obj', file_id: 'F1', storage_path: 'p', s3_url: 's', slug: 'abc', provider_type: 's3', contentType: 'text/plain', expires_in: 600 };

/** The URL-upload API, with storage answering the PUT with `put`. */
function server(put: () => HttpResponse) {
  return fakeTransport(
    (request: SeenRequest) => {
      if (request.method === 'PUT') return put();
      if (request.path === '/url/info') return apiAnswer(info);
      if (request.path === '/url/presign') return apiAnswer(presign);
      if (request.path === '/url/commit') return apiAnswer({ slug: 'abc', filename: 'report.txt' });
      return apiAnswer({});
    },
    () => new Response('hello'),
  );
}

const bodyOf = (requests: SeenRequest[], path: string) => JSON.parse(String(requests.find((request) => request.path === path)?.body)) as Record<string, unknown>;

describe('urlUpload', () => {
  it('downloads the source straight from it (CORS allows), uploads it in one PUT and commits it as a share', async () => {
    const { transport, requests, downloads } = server(() => answer(200, '', { ETag: '"tag"' }));
    const { context, events } = fakeContext(transport);
    const share = await urlUpload(command, context);

    expect(share).toEqual({ slug: 'abc', filename: 'report.txt' });
    expect(downloads).toEqual(['https://source.test/report.txt']);
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.url).toBe('https://storage.test/obj');
    expect((put?.body as Blob).size).toBe(5);
    expect(bodyOf(requests, '/url/presign')).toMatchObject({ url: info.url, filename: 'report.txt', mimetype: 'text/plain', size: 5 });
    expect(bodyOf(requests, '/url/commit')).toMatchObject({ file_id: 'F1', filename: 'report.txt', size: 5, etag: 'tag', expires_in: 24 });
    expect(requests.map((request) => request.path)).not.toContain('/url/cancel');
    expect(stagesOf(events)).toEqual(['starting', 'initializing', 'uploading', 'completing', 'completed']);
  });

  it('a PUT that storage refuses drops the server’s record and fails with the status, committing nothing', async () => {
    const { transport, requests } = server(() => answer(500));
    const { context } = fakeContext(transport);
    const failure = await urlUpload(command, context).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(TransferFailure);
    expect(failure).toMatchObject({ code: 'upload_failed', status: 500 });
    expect(bodyOf(requests, '/url/cancel')).toEqual({ file_id: 'F1' });
    expect(requests.map((request) => request.path)).not.toContain('/url/commit');
  });
});
