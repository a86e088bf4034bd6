/**
 * The live transfers over real HTTP: a slow WebDAV PUT and a file request's parts seen while they run and ended with
 * their outcome, another instance's transfer seen through the table, the event stream (snapshot, changes, close),
 * tickets, the sweep, and every caller but the admin refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileRequestGrantSchema, fileRequestInitResponseSchema, fileRequestSchema, type CreateFileRequest } from '../../../contract/file-requests';
import { FINISHED_KEPT_MS, liveTransferListSchema, type LiveEvent, type LiveTransfer } from '../../../contract/jobs';
import { dashboardStatsSchema } from '../../../contract/files';
import { multipartSignResponseSchema } from '../../../contract/multipart';
import { planUpload } from '../../../contract/parts';
import { basicAuth, davUrl } from '../../../tests/fixtures/dav';
import { patternBytes } from '../../../tests/fixtures/files';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, expectError, expectOk, type TestApp } from '../../../tests/fixtures/test-app';
import { STALE_RUNNING_MS, sweepTransfers, writeTransfers } from './records';
import { transferFeedOf } from './feed';
import { TransferRegistry } from './registry';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MIB = 1024 * 1024;

/** Reads Server-Sent Events off a fetch answer, one parsed event per call. */
function eventReader(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<LiveEvent> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) return JSON.parse(data.slice('data: '.length)) as LiveEvent;
          continue; // `retry:` and keep-alive comments carry no event
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next `transfer` event that `matches`, skipping others. */
    async until(matches: (transfer: LiveTransfer) => boolean): Promise<LiveTransfer> {
      for (;;) {
        const event = await this.next();
        if (event.type === 'transfer' && matches(event.transfer)) return event.transfer;
      }
    },
    cancel: () => reader.cancel(),
  };
}

/** A request body the test feeds by hand, so the upload stays open as long as the test wants. */
function slowBody() {
  let push!: (chunk: Uint8Array | null) => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (chunk) => (chunk ? controller.enqueue(chunk) : controller.close());
    },
  });
  return { body, push: (chunk: Uint8Array | null) => push(chunk) };
}

describe('live transfers', () => {
  let t: TestApp;
  let token: string;
  let origin: string;

  const list = async () => (await expectOk(await t.request('/api/admin/transfers', { token }), liveTransferListSchema)).items;
  const waitForTransfer = (matches: (transfer: LiveTransfer) => boolean) =>
    vi.waitFor(
      async () => {
        const found = (await list()).find(matches);
        if (!found) throw new Error('not there yet');
        return found;
      },
      { timeout: 10_000, interval: 100 },
    );
  const events = async (query = '', auth: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    fetch(`${origin}/api/admin/transfers/events${query}`, { headers: auth });

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    origin = await t.listen();
  });
  afterAll(() => t.close());

  it('shows a WebDAV PUT while its body comes, with who and how far, then ends it completed', async () => {
    const { body, push } = slowBody();
    const answered = fetch(`${origin}${davUrl('/local/slow.bin')}`, {
      method: 'PUT',
      headers: { authorization: basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD), 'content-length': String(3 * MIB) },
      body,
      duplex: 'half',
    } as RequestInit);
    push(patternBytes(MIB, 1));
    const running = await waitForTransfer((x) => x.name === '/local/slow.bin' && x.bytesDone >= MIB);
    expect(running).toMatchObject({ kind: 'webdav-put', direction: 'in', who: { kind: 'admin', name: ADMIN_USERNAME }, bytesTotal: 3 * MIB, outcome: 'running', finishedAt: null });
    const stats = await expectOk(await t.request('/api/admin/dashboard/stats', { token }), dashboardStatsSchema);
    expect(stats.transfersInFlight).toBe(1);
    push(patternBytes(2 * MIB, 2));
    push(null);
    expect((await answered).status).toBe(201);
    const ended = (await list()).find((x) => x.id === running.id);
    expect(ended).toMatchObject({ outcome: 'completed', bytesDone: 3 * MIB });
    expect(ended?.finishedAt).not.toBeNull();
  });

  it('ends a WebDAV PUT whose client went away as failed, and keeps nothing of it', async () => {
    const { body, push } = slowBody();
    const controller = new AbortController();
    const answered = fetch(`${origin}${davUrl('/local/cut.bin')}`, {
      method: 'PUT',
      headers: { authorization: basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD), 'content-length': String(3 * MIB) },
      body,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit).catch(() => undefined);
    push(patternBytes(MIB, 3));
    const running = await waitForTransfer((x) => x.name === '/local/cut.bin' && x.bytesDone >= MIB);
    controller.abort();
    await answered;
    expect(await waitForTransfer((x) => x.id === running.id && x.outcome !== 'running')).toMatchObject({ outcome: 'failed' });
  });

  it('follows a file request\'s upload from init to complete, counting its LOCAL parts\' bytes', async () => {
    const request = await expectOk(
      await t.request('/api/file-requests', { token, json: { title: 'Scans for Ada', target: { kind: 'folder', path: '/local/scans/' } } satisfies CreateFileRequest }),
      fileRequestSchema,
      201,
    );
    const grant = (await expectOk(await t.request(`/api/public/file-requests/${request.slug}/grant`, { json: {} }), fileRequestGrantSchema, 201)).grant;
    const call = (step: string, json: unknown) =>
      t.request(`/api/public/file-requests/${request.slug}/multipart/${step}`, { json, headers: { authorization: `FileRequest ${grant}` } });
    const bytes = patternBytes(6 * MIB, 4);
    const { partSize } = planUpload(bytes.length);
    const ref = await expectOk(await call('init', { filename: 'scan.pdf', size: bytes.length, part_size: partSize }), fileRequestInitResponseSchema, 201);
    const started = await waitForTransfer((x) => x.name === 'scan.pdf');
    expect(started).toMatchObject({ kind: 'file-request-upload', who: { kind: 'fileRequest', name: 'Scans for Ada', id: request.id }, bytesTotal: bytes.length, bytesDone: 0, partsInFlight: 0 });

    const signed = await expectOk(await call('sign', { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [1, 2] }), multipartSignResponseSchema);
    expect((await list()).find((x) => x.id === started.id)?.partsInFlight).toBe(2);
    const parts = [];
    for (const [index, { url, partNumber }] of signed.urls.entries()) {
      const res = await fetch(await t.overHttp(url), { method: 'PUT', body: new Uint8Array(bytes.subarray(index * partSize, (index + 1) * partSize)) });
      expect(res.status).toBe(200);
      parts.push({ partNumber, etag: (res.headers.get('etag') ?? '').replace(/"/g, '') });
    }
    expect((await list()).find((x) => x.id === started.id)).toMatchObject({ bytesDone: bytes.length, partsInFlight: 0, outcome: 'running' });
    expect((await call('complete', { file_id: ref.file_id, upload_id: ref.upload_id, parts })).status).toBe(201);
    expect((await list()).find((x) => x.id === started.id)).toMatchObject({ outcome: 'completed', bytesDone: bytes.length });
  });

  it('names form uploads by their file or folder and ends them with the request', async () => {
    const batch = new FormData();
    batch.append('path', '/local/batch');
    batch.append('relativePath', 'a/one.txt');
    batch.append('file', new Blob([patternBytes(3000, 5)]), 'one.txt');
    expect((await t.request('/api/admin/fs/upload-batch', { token, method: 'POST', body: batch })).status).toBe(200);
    const share = new FormData();
    share.append('file', new Blob([patternBytes(2000, 6)]), 'notes.txt');
    expect((await t.request('/api/upload', { token, method: 'POST', body: share })).status).toBe(201);
    const refused = new FormData();
    refused.append('path', '/nowhere');
    refused.append('file', new Blob(['x']), 'x.txt');
    expect((await t.request('/api/admin/fs/upload', { token, method: 'POST', body: refused })).status).toBe(404);

    const transfers = await list();
    const batchRow = transfers.find((x) => x.kind === 'batch-upload');
    expect(batchRow).toMatchObject({ name: '/local/batch', outcome: 'completed' });
    expect(batchRow?.bytesDone).toBeGreaterThan(3000);
    expect(transfers.find((x) => x.kind === 'share-upload')).toMatchObject({ name: 'notes.txt', outcome: 'completed' });
    expect(transfers.find((x) => x.kind === 'fs-upload')).toMatchObject({ outcome: 'failed' });
  });

  it('streams a snapshot, then this instance\'s and another instance\'s changes, until the client closes', async () => {
    const res = await events();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = eventReader(res);
    const snapshot = await stream.next();
    expect(snapshot.type).toBe('snapshot');
    expect(snapshot.type === 'snapshot' && snapshot.transfers?.some((x) => x.name === '/local/slow.bin' && x.outcome === 'completed')).toBe(true);

    const put = await fetch(`${origin}${davUrl('/local/seen.txt')}`, { method: 'PUT', headers: { authorization: basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD) }, body: 'hello' });
    expect(put.status).toBe(201);
    expect(await stream.until((x) => x.name === '/local/seen.txt' && x.outcome === 'completed')).toMatchObject({ kind: 'webdav-put', bytesDone: 5 });

    // Another instance on the same database: its rows reach this instance's watchers, and its list.
    const other = new TransferRegistry(t.deps, { instance: 'instance-b' });
    const transfer = other.start({ kind: 'webdav-get', who: { kind: 'apiKey', name: 'backup', id: 'k1' }, name: '/local/far.iso', bytesTotal: 100 });
    transfer.progress(40);
    await other.flush();
    expect(await stream.until((x) => x.id === transfer.id && x.bytesDone === 40)).toMatchObject({ instance: 'instance-b', outcome: 'running', direction: 'out' });
    transfer.end('cancelled');
    await other.flush();
    expect(await stream.until((x) => x.id === transfer.id && x.outcome === 'cancelled')).toMatchObject({ instance: 'instance-b' });
    expect((await list()).find((x) => x.id === transfer.id)).toMatchObject({ outcome: 'cancelled', who: { kind: 'apiKey', name: 'backup', id: 'k1' } });
    expect(transferFeedOf(t.deps).watching).toBe(1);
    await stream.cancel();
    await vi.waitFor(() => expect(transferFeedOf(t.deps).watching).toBe(0));
  });

  it('refuses everyone but the admin', async () => {
    expect((await events('', {})).status).toBe(401);
    expect((await expectError(await t.request('/api/admin/transfers'), 401)).data.error).toBe('unauthorized');
    const key = await t.createKey(token, { text_permission: true, file_permission: true, mount_permission: true });
    for (const path of ['/api/admin/transfers', '/api/admin/transfers/events']) {
      expect((await expectError(await t.request(path, { apiKey: key.key }), 403)).data.error).toBe('forbidden');
    }
  });

  it('keeps finished transfers a day; a running one its instance stopped writing ends as failed', async () => {
    const at = t.clock.now().toISOString();
    const row = (id: string, outcome: LiveTransfer['outcome']): LiveTransfer => ({
      id, kind: 'download', direction: 'out', who: { kind: 'visitor', name: '' }, name: `${id}.zip`, bytesDone: 1, bytesTotal: 2, speed: null,
      partsInFlight: null, outcome, instance: 'instance-gone', startedAt: at, updatedAt: at, finishedAt: outcome === 'running' ? null : at,
    });
    await writeTransfers(t.db, [row('done', 'completed'), row('stuck', 'running')]);
    t.clock.advance(STALE_RUNNING_MS - 1000);
    await sweepTransfers(t.deps);
    expect((await list()).find((x) => x.id === 'stuck')?.outcome).toBe('running');
    t.clock.advance(2000);
    await sweepTransfers(t.deps);
    expect((await list()).find((x) => x.id === 'stuck')).toMatchObject({ outcome: 'failed', speed: null });
    expect((await list()).some((x) => x.id === 'done')).toBe(true);
    t.clock.advance(FINISHED_KEPT_MS - STALE_RUNNING_MS);
    await sweepTransfers(t.deps);
    const ids = (await t.db.selectFrom('live_transfers').select('id').execute()).map((r) => r.id);
    expect(ids).not.toContain('done');
    expect(ids).toContain('stuck'); // failed an hour after the other: kept a day from then
  });
});
