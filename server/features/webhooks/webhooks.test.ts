/**
 * Webhooks against a receiver the test runs on 127.0.0.1 (the test app allows private addresses, as URL uploads'
 * tests do): each event once and signed, order kept while the receiver is down, the automatic disable, the address
 * guard, no secret in any body, and the outbox kept for a new process.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileRequestInitResponseSchema, fileRequestSchema, fileRequestUploadSchema, fileRequestGrantSchema } from '../../../contract/file-requests';
import { expenseClaimDetailSchema } from '../../../contract/expenses';
import { multipartSignResponseSchema } from '../../../contract/multipart';
import { planUpload } from '../../../contract/parts';
import { createdPasteSchema } from '../../../contract/pastes';
import {
  WEBHOOK_EVENTS,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
  type WebhookEvent,
} from '../../../contract/webhooks';
import { fileClient } from '../../../tests/fixtures/files';
import { fsClient } from '../../../tests/fixtures/fs';
import { jobsClient } from '../../../tests/fixtures/jobs';
import { expectError, expectOk, HOUR, MINUTE, useTestApp, type SharedTestApp } from '../../../tests/fixtures/test-app';
import { startReceiver, verifySignature } from '../../../tests/fixtures/webhook-receiver';
import { eventBusOf } from '../events/bus';
import { jobsOf } from '../jobs/service';
import { deliveryOf, DELIVERIES_KEPT, DISABLE_AFTER_FAILURES, WebhookDelivery } from './delivery';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function webhookClient(t: SharedTestApp) {
  return {
    create: async (body: Record<string, unknown>) => expectOk(await t.request('/api/admin/webhooks', { token: t.token, json: body }), webhookWithSecretSchema, 201),
    list: async () => (await expectOk(await t.request('/api/admin/webhooks', { token: t.token }), webhookListSchema)).items,
    deliveries: async (id: string) => (await expectOk(await t.request(`/api/admin/webhooks/${id}/deliveries`, { token: t.token }), webhookDeliveryListSchema)).items,
    /** Queued events to the outbox, then every due delivery done. */
    deliver: async () => {
      await eventBusOf(t.deps).flush();
      await deliveryOf(t.deps).deliverDue();
    },
  };
}

const paste = async (t: SharedTestApp, body: Record<string, unknown> = {}) =>
  expectOk(await t.request('/api/paste', { token: t.token, json: { content: 'the paste text', ...body } }), createdPasteSchema, 201);

describe('webhooks', () => {
  // An app per test: tests move its clock by hours (past the admin's session).
  const t = useTestApp({ perTest: true });
  const hooks = webhookClient(t);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.status = 200;
  });

  it('drops events no webhook takes, yet one saved a moment later hears the next at once', async () => {
    const created = await paste(t);
    await t.request(`/api/paste/${created.slug}`);
    // Now the bus knows that no webhook listens, for the next second.
    await eventBusOf(t.deps).flush();
    await hooks.create({ name: 'Views', url: receiver.url, events: ['paste.viewed'] });
    await t.request(`/api/paste/${created.slug}`);
    await hooks.deliver();
    expect(receiver.payloads().map((payload) => payload.event)).toEqual(['paste.viewed']);
    expect(receiver.payloads()[0]?.data).toMatchObject({ slug: created.slug, views: 2 });
  });

  it('answers the secret once, lists only its hint, and refuses bad input', async () => {
    const created = await hooks.create({ name: 'Ops', url: receiver.url, events: ['paste.created'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = await hooks.list();
    expect(listed).toEqual([expect.objectContaining({ id: created.id, secretHint: created.secretHint, enabled: true, format: 'json' })]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const row = await t.db.selectFrom('webhooks').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(created.secret.slice(6));

    expect((await expectError(await t.request('/api/admin/webhooks', { token: t.token, json: { name: 'x', url: receiver.url, events: ['paste.eaten'] } }), 400)).data).toMatchObject({ field: 'events.0' });
    expect((await expectError(await t.request('/api/admin/webhooks', { token: t.token, json: { name: 'x', url: 'ftp://example.com/', events: ['paste.created'] } }), 400)).data).toMatchObject({ field: 'url' });
    await expectError(await t.request('/api/admin/webhooks', { json: { name: 'x', url: receiver.url, events: ['paste.created'] } }), 401);
    await expectError(await t.request('/api/admin/webhooks/nope', { token: t.token, method: 'PUT', json: { enabled: false } }), 404);

    const rotated = await expectOk(await t.request(`/api/admin/webhooks/${created.id}`, { token: t.token, method: 'PUT', json: { rotateSecret: true } }), webhookWithSecretSchema);
    expect(rotated.secret).not.toBe(created.secret);
    const renamed = await expectOk(await t.request(`/api/admin/webhooks/${created.id}`, { token: t.token, method: 'PUT', json: { name: 'Ops 2' } }), webhookSchema);
    expect(renamed).not.toHaveProperty('secret');
  });

  it('delivers each event once, signed with the secret, with no password, hash, secret or paste text in any body', async () => {
    // job.finished has its own test, with a real copy job.
    const everything: WebhookEvent[] = WEBHOOK_EVENTS.filter((event) => event !== 'job.finished');
    const hook = await hooks.create({ name: 'All', url: receiver.url, events: everything });
    const files = fileClient(t);

    const locked = await paste(t, { password: 'paste-password-1', remark: 'locked' });
    await expectOk(await t.request(`/api/paste/${locked.slug}`, { method: 'POST', json: { password: 'paste-password-1' } }), v.unknown());
    const shortLived = await paste(t, { expiresAt: new Date(t.clock.now().getTime() + MINUTE).toISOString() });
    const file = await files.uploadOk(new TextEncoder().encode('file bytes'), { token: t.token }, { filename: 'report.txt', fields: { password: 'file-password-1', expires_in: '1' } });
    expect((await files.verify(file.slug, 'file-password-1')).status).toBe(200);

    const claim = await expectOk(
      await t.request('/api/expenses', { token: t.token, json: { title: 'Taxi', amount_minor: 1250, currency: 'EUR', spent_on: '2030-01-10', category: 'travel' } }),
      expenseClaimDetailSchema,
      201,
    );
    await expectOk(await t.request(`/api/expenses/${claim.id}/submit`, { token: t.token, method: 'POST' }), expenseClaimDetailSchema);
    await expectOk(await t.request(`/api/admin/expenses/${claim.id}/process`, { token: t.token, json: {} }), expenseClaimDetailSchema);
    await expectOk(await t.request(`/api/admin/expenses/${claim.id}/approve`, { token: t.token, json: {} }), expenseClaimDetailSchema);

    const request = await expectOk(
      await t.request('/api/file-requests', { token: t.token, json: { title: 'Inbox', target: { kind: 'shares' }, max_files: 1, password: 'request-password-1' } }),
      fileRequestSchema,
      201,
    );
    const { grant } = await expectOk(await t.request(`/api/public/file-requests/${request.slug}/grant`, { json: { password: 'request-password-1' } }), fileRequestGrantSchema, 201);
    const sender = { headers: { authorization: `FileRequest ${grant}` } };
    const bytes = new TextEncoder().encode('sent through the request');
    const step = (name: string, json: unknown) => t.request(`/api/public/file-requests/${request.slug}/multipart/${name}`, { ...sender, json });
    const ref = await expectOk(await step('init', { filename: 'sent.txt', size: bytes.length, part_size: planUpload(bytes.length).partSize }), fileRequestInitResponseSchema, 201);
    const signed = await expectOk(await step('sign', { file_id: ref.file_id, upload_id: ref.upload_id, partNumbers: [1] }), multipartSignResponseSchema);
    const put = await fetch(await t.overHttp(signed.urls[0]?.url ?? ''), { method: 'PUT', body: bytes });
    const etag = (put.headers.get('etag') ?? '').replace(/"/g, '');
    await expectOk(await step('complete', { file_id: ref.file_id, upload_id: ref.upload_id, parts: [{ partNumber: 1, etag }] }), fileRequestUploadSchema, 201);

    // Both shares expire; each link opened twice announces its expiry once.
    t.clock.advance(2 * HOUR);
    for (let i = 0; i < 2; i++) {
      await expectError(await t.request(`/api/paste/${shortLived.slug}`), 410);
      await expectError(await files.info(file.slug), 410);
    }
    await hooks.deliver();

    const payloads = receiver.payloads();
    const counts = Object.fromEntries(everything.map((event) => [event, payloads.filter((payload) => payload.event === event).length]));
    // Two pastes and two file shares (the upload, and the request's file) were made.
    expect(counts).toEqual({ ...Object.fromEntries(everything.map((event) => [event, 1])), 'paste.created': 2, 'file.created': 2 });
    expect(payloads.find((payload) => payload.event === 'paste.viewed')?.data).toMatchObject({ slug: locked.slug, hasPassword: true, remark: 'locked' });
    expect(payloads.find((payload) => payload.event === 'file.downloaded')?.data).toMatchObject({ slug: file.slug, filename: 'report.txt', size: 10 });
    expect(payloads.find((payload) => payload.event === 'expense.decided')?.data).toMatchObject({ id: claim.id, status: 'approved' });
    expect(payloads.find((payload) => payload.event === 'file_request.full')?.data).toMatchObject({ id: request.id, title: 'Inbox' });

    for (const { headers, body } of receiver.received) {
      // Signed at the app's clock, whenever between the first event and now it went out.
      const signedAt = verifySignature(hook.secret, headers['x-clipstash-signature'] as string, body) ?? 0;
      expect(signedAt * 1000).toBeGreaterThanOrEqual(t.clock.now().getTime() - 3 * HOUR);
      expect(signedAt * 1000).toBeLessThanOrEqual(t.clock.now().getTime());
      expect(verifySignature('whsec_another', headers['x-clipstash-signature'] as string, body)).toBeUndefined();
      expect(headers['content-type']).toBe('application/json');
      for (const secret of ['password-1', hook.secret, 'the paste text', '$scrypt', '$argon', 'password_hash', 'storage_path']) expect(body).not.toContain(secret);
    }
    expect(await hooks.deliveries(hook.id)).toHaveLength(receiver.received.length);
  });

  it('announces a server job once it ends', async () => {
    const hook = await hooks.create({ name: 'Jobs', url: receiver.url, events: ['job.finished'] });
    const token = t.token;
    await fsClient(t, { token }).uploadOk('/local/webhook-jobs', 'a.txt', new TextEncoder().encode('job bytes'));
    const jobs = jobsClient(t, { token });
    try {
      const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: '/local/webhook-jobs/a.txt', targetPath: '/local/webhook-copies/' }] });
      await jobs.ended(job.id);
      // The runner announces the end just after writing it, which the poll above may see first.
      await vi.waitFor(async () => {
        await hooks.deliver();
        expect(receiver.received).toHaveLength(1);
      });
      expect(receiver.payloads()).toEqual([expect.objectContaining({ event: 'job.finished', data: expect.objectContaining({ id: job.id, type: 'copy', status: 'completed' }) })]);
      expect(verifySignature(hook.secret, receiver.received[0]?.headers['x-clipstash-signature'] as string, receiver.received[0]?.body ?? '')).toBeTypeOf('number');
    } finally {
      await jobsOf(t.deps).stop();
    }
  });

  it('keeps its delivery log to the last 50 attempts', async () => {
    const hook = await hooks.create({ name: 'Chatty', url: receiver.url, events: ['paste.created'] });
    for (let i = 0; i < DELIVERIES_KEPT + 3; i++) await t.request(`/api/admin/webhooks/${hook.id}/test`, { token: t.token, method: 'POST' });
    const log = await hooks.deliveries(hook.id);
    expect(log).toHaveLength(DELIVERIES_KEPT);
    const newest = receiver.payloads().at(-1)?.id;
    expect(log[0]?.eventId).toBe(newest);
  });

  it('keeps each webhook\'s order while its receiver is down, and delivers all once it is up', async () => {
    const hook = await hooks.create({ name: 'Order', url: receiver.url, events: ['paste.created'] });
    await receiver.down();
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await paste(t)).slug);
    await hooks.deliver();
    expect(receiver.received).toHaveLength(0);
    expect(await hooks.deliveries(hook.id)).toEqual([expect.objectContaining({ statusCode: null, error: 'network', ok: false, attempt: 1 })]);
    expect((await hooks.list())[0]).toMatchObject({ pending: 3, failureStreak: 1, enabled: true });

    // Not yet due: the back-off holds the first back, and those after it wait behind it.
    await receiver.up();
    t.clock.advance(5000);
    await hooks.deliver();
    expect(receiver.received).toHaveLength(0);
    t.clock.advance(5000);
    await hooks.deliver();
    expect(receiver.payloads().map((payload) => payload.data.slug)).toEqual(slugs);
    expect((await hooks.list())[0]).toMatchObject({ pending: 0, failureStreak: 0 });
    const log = await hooks.deliveries(hook.id);
    expect(log.map((entry) => [entry.statusCode, entry.attempt])).toEqual([[200, 1], [200, 1], [200, 2], [null, 1]]);
    expect(log[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it(`turns a webhook off after ${DISABLE_AFTER_FAILURES} failures in a row, and on again by hand`, async () => {
    receiver.status = 500;
    const hook = await hooks.create({ name: 'Failing', url: receiver.url, events: ['paste.created'] });
    await paste(t);
    await hooks.deliver();
    for (let i = 1; i < DISABLE_AFTER_FAILURES; i++) {
      expect((await hooks.list())[0]).toMatchObject({ enabled: true, failureStreak: i });
      t.clock.advance(HOUR);
      await hooks.deliver();
    }
    expect(receiver.received).toHaveLength(DISABLE_AFTER_FAILURES);
    expect((await hooks.list())[0]).toMatchObject({ enabled: false, disabledReason: 'failures', failureStreak: DISABLE_AFTER_FAILURES, pending: 1 });
    // Off: nothing more is sent, and new events are not queued for it.
    await paste(t);
    t.clock.advance(HOUR);
    await hooks.deliver();
    expect(receiver.received).toHaveLength(DISABLE_AFTER_FAILURES);

    receiver.status = 204;
    await expectOk(await t.request(`/api/admin/webhooks/${hook.id}`, { token: t.token, method: 'PUT', json: { enabled: true } }), webhookSchema);
    await hooks.deliver();
    expect(receiver.received).toHaveLength(DISABLE_AFTER_FAILURES + 1);
    expect((await hooks.list())[0]).toMatchObject({ enabled: true, disabledReason: null, failureStreak: 0, pending: 0 });
    expect(await hooks.deliveries(hook.id)).toHaveLength(DISABLE_AFTER_FAILURES + 1);
  });

  it('drops an event after 24 hours of retries', async () => {
    receiver.status = 503;
    const hook = await hooks.create({ name: 'Gives up', url: receiver.url, events: ['paste.created'] });
    await paste(t);
    await hooks.deliver();
    t.clock.advance(24 * HOUR);
    await hooks.deliver();
    // The admin's session ended with the day: the records tell.
    expect(await t.db.selectFrom('webhook_outbox').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirst()).toMatchObject({ enabled: 0, disabled_reason: 'failures' });
    expect(await t.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id).execute()).toHaveLength(2);
  });

  it('sends a test event now and logs it; ready-made bodies for Discord, Slack and ntfy', async () => {
    const formats = ['discord', 'slack', 'ntfy'] as const;
    for (const format of formats) {
      const hook = await hooks.create({ name: format, url: `${receiver.url}/${format}`, events: ['paste.created'], format });
      const delivery = await expectOk(await t.request(`/api/admin/webhooks/${hook.id}/test`, { token: t.token, method: 'POST' }), webhookDeliverySchema);
      expect(delivery).toMatchObject({ event: 'webhook.test', statusCode: 200, ok: true, attempt: 1 });
      expect(await hooks.deliveries(hook.id)).toEqual([delivery]);
    }
    const [discord, slack, ntfy] = receiver.received;
    expect(JSON.parse(discord?.body ?? '')).toEqual({ content: 'Test event from Clipstash [webhook.test]', allowed_mentions: { parse: [] } });
    expect(JSON.parse(slack?.body ?? '')).toEqual({ text: 'Test event from Clipstash [webhook.test]' });
    expect(ntfy?.body).toBe('Test event from Clipstash');
    expect(ntfy?.headers).toMatchObject({ title: 'Clipstash', tags: 'webhook.test', 'content-type': 'text/plain; charset=utf-8' });

    // A secret sealed under another key (ENCRYPTION_KEY changed) fails that webhook's deliveries, plainly.
    const broken = await hooks.create({ name: 'Old key', url: receiver.url, events: ['paste.created'] });
    await t.db.updateTable('webhooks').set({ secret_sealed: 'v1.AAAA.AAAA.AAAA' }).where('id', '=', broken.id).execute();
    const refused = await expectOk(await t.request(`/api/admin/webhooks/${broken.id}/test`, { token: t.token, method: 'POST' }), webhookDeliverySchema);
    expect(refused).toMatchObject({ statusCode: null, error: 'secret_unreadable', ok: false });
    expect(receiver.received).toHaveLength(3);
  });

  it('keeps undelivered events in the outbox for the next process', async () => {
    await hooks.create({ name: 'Durable', url: receiver.url, events: ['paste.created'] });
    await receiver.down();
    const created = await paste(t);
    await hooks.deliver();
    await deliveryOf(t.deps).stop();
    await receiver.up();
    t.clock.advance(MINUTE);
    // A new process: nothing in memory but the database.
    const restarted = new WebhookDelivery(t.deps);
    await restarted.deliverDue();
    await restarted.stop();
    expect(receiver.payloads().map((payload) => payload.data.slug)).toEqual([created.slug]);
  });
});

describe('webhooks without ALLOW_PRIVATE_URLS', () => {
  const t = useTestApp({ env: { ALLOW_PRIVATE_URLS: '0' } });

  it.each([
    ['http://127.0.0.1:9/hook', 'loopback'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://169.254.169.254/latest', 'metadata'],
  ])('refuses %s (%s)', async (url, issue) => {
    const refused = await expectError(await t.request('/api/admin/webhooks', { token: t.token, json: { name: 'x', url, events: ['paste.created'] } }), 400);
    expect(refused.data).toMatchObject({ field: 'url', issue });
    expect(await t.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });
});
