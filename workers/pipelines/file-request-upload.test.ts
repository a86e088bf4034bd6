import { describe, expect, it } from 'vitest';
import { planUpload } from '../../contract/parts';
import type { HttpRequest, HttpResponse, Transport } from '../transport/http';
import { requestProtocol } from './file-request-upload';

const api = { baseUrl: 'http://test', language: 'en-US', authorization: 'FileRequest g.sig' };
const answer = (status: number, data: unknown, message = 'ok'): HttpResponse => ({ status, header: () => null, text: JSON.stringify({ code: status, message, data }) });

function fakeTransport(answers: HttpResponse[]) {
  const requests: HttpRequest[] = [];
  const transport: Transport = {
    async send(request) {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no answer left');
      return next;
    },
    fetch: () => Promise.reject(new Error('not used')),
  };
  return { transport, requests };
}

const fields = { slug: 'a b', filename: 'scan.pdf', contentType: 'application/pdf', size: 1000 };
const plan = planUpload(1000);
const signal = new AbortController().signal;

describe('the file request protocol', () => {
  it('starts an upload under the request with the sender’s grant, never an account’s credentials', async () => {
    const { transport, requests } = fakeTransport([answer(201, { file_id: 'f1', upload_id: 'u1', filename: 'scan.pdf', part_size: plan.partSize, part_count: 1 })]);
    await expect(requestProtocol(transport, api, fields).init(plan, signal)).resolves.toEqual({ fileId: 'f1', uploadId: 'u1' });
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'http://test/api/public/file-requests/a%20b/multipart/init', headers: { Authorization: 'FileRequest g.sig' } });
    expect(JSON.parse(String(requests[0]?.body))).toEqual({ filename: 'scan.pdf', content_type: 'application/pdf', size: 1000, part_size: plan.partSize });
  });

  it('says a request’s refusals in the server’s words: a full request is no taken link, its size limit no upload limit', async () => {
    for (const [status, message] of [[409, 'This file request has received all the files it accepts'], [413, 'The file is larger than this request accepts (1 KB)']] as const) {
      const { transport } = fakeTransport([answer(status, { error: 'conflict' }, message)]);
      await expect(requestProtocol(transport, api, fields).init(plan, signal)).rejects.toMatchObject({ code: 'unknown', status, serverMessage: message });
    }
    const { transport } = fakeTransport([answer(410, { error: 'gone' }, 'This file request is closed')]);
    await expect(requestProtocol(transport, api, fields).init(plan, signal)).rejects.toMatchObject({ code: 'init_failed', status: 410 });
  });

  it('refuses a part plan that is not the journal’s', async () => {
    const { transport } = fakeTransport([answer(201, { file_id: 'f1', upload_id: 'u1', filename: 'scan.pdf', part_size: plan.partSize * 2, part_count: 1 })]);
    await expect(requestProtocol(transport, api, fields).init(plan, signal)).rejects.toMatchObject({ code: 'init_failed' });
  });
});
