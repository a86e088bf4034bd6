/**
 * Receipts of expense claims on LOCAL and on s3rver: stored in the default storage's expense area, where no mount
 * reaches (refused by the fs API, hidden from its listings); readable by the claim's owner and the admin only,
 * as sandboxed attachments (the app shows them from a blob); typed by name and by signature; within the max upload size; and never
 * a record without its object nor an object without its record, whatever fails.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expenseClaimDetailSchema, expenseReceiptSchema, type CreateExpenseRequest } from '../../../contract/expenses';
import { storageConfigSchema } from '../../../contract/storage';
import { systemSettingsSchema } from '../../../contract/system';
import { expectStoredFold } from '../../../tests/fixtures/expense-status';
import { bytesOf, patternBytes, type Auth } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { findStorageConfig } from '../storages/configs';
import type { StorageDriver } from '../../storage/driver';
import { EXPENSE_AREA } from '../../storage/keys';
import { driverFor } from '../../storage/registry';

vi.setConfig({ testTimeout: 60_000 });

const CLAIM: CreateExpenseRequest = { title: 'Hotel', amount_minor: 18_000, currency: 'EUR', spent_on: '2030-01-12', category: 'lodging' };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), patternBytes(3000, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), patternBytes(500, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), patternBytes(100, 3)]);
const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), patternBytes(100, 4)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), patternBytes(800, 5)]);

const formOf = (bytes: Buffer, filename: string, type = 'application/octet-stream') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
};

describe.each(['LOCAL', 'S3'] as const)('expense receipts on %s', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let driver: StorageDriver;
  let rootMount: string;
  const owner: Auth = {};
  const other: Auth = {};

  const newClaim = async () => expectOk(await t.request('/api/expenses', { ...owner, json: CLAIM }), expenseClaimDetailSchema, 201);
  const upload = (claimId: string, bytes: Buffer, filename: string, who: Auth = owner) =>
    t.request(`/api/expenses/${claimId}/receipts`, { ...who, body: formOf(bytes, filename) });
  const uploadOk = async (claimId: string, bytes: Buffer, filename: string) => expectOk(await upload(claimId, bytes, filename), expenseReceiptSchema, 201);
  const receiptUrl = (claimId: string, receiptId: string) => `/api/expenses/${claimId}/receipts/${receiptId}`;
  const objectsOf = async (claimId: string) => (await driver.listTree(`${EXPENSE_AREA}/${claimId}`)).objects.map((o) => o.key);
  const rowsOf = async (claimId: string) => t.db.selectFrom('expense_receipts').selectAll().where('claim_id', '=', claimId).execute();

  beforeAll(async () => {
    owner.apiKey = (await t.createKey(t.token, { name: 'owner', expense_permission: true })).key;
    other.apiKey = (await t.createKey(t.token, { name: 'other', expense_permission: true })).key;
    let configId: string;
    if (kind === 'S3') {
      s3 = await startS3rver();
      const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3.configRequest({ is_default: true }) }), storageConfigSchema, 201);
      await createMount(t, t.token, { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/bucket' });
      configId = config.id;
      rootMount = '/bucket';
    } else {
      configId = (await t.db.selectFrom('storage_configs').select('id').where('is_default', '=', 1).executeTakeFirstOrThrow()).id;
      rootMount = '/local';
    }
    const config = await findStorageConfig(t.db, configId);
    if (!config) throw new Error('no default storage');
    driver = driverFor(t.deps, config);
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('stores each accepted type in the default storage’s expense area and serves it as a sandboxed attachment to the owner and the admin', async () => {
    const claim = await newClaim();
    const cases = [
      [PNG, 'scan.PNG', 'image/png'],
      [JPEG, 'photo.jpeg', 'image/jpeg'],
      [GIF, 'a.gif', 'image/gif'],
      [WEBP, 'b.webp', 'image/webp'],
      [PDF, 'Rechnung März.pdf', 'application/pdf'],
    ] as const;
    for (const [bytes, filename, type] of cases) {
      const receipt = await uploadOk(claim.id, bytes, filename);
      expect(receipt).toMatchObject({ filename, content_type: type, size: bytes.length });
      for (const who of [owner, { token: t.token }]) {
        const res = await t.request(receiptUrl(claim.id, receipt.id), who);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(type);
        // Never for a page to render (the app shows a blob of it): a sandboxed attachment, PDF too.
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toBe('sandbox');
        expect((await bytesOf(res)).equals(bytes)).toBe(true);
      }
    }
    const rows = await rowsOf(claim.id);
    expect(rows).toHaveLength(cases.length);
    expect(rows.every((row) => row.storage_path.startsWith(`${EXPENSE_AREA}/${claim.id}/`))).toBe(true);
    expect((await objectsOf(claim.id)).sort()).toEqual(rows.map((row) => row.storage_path).sort());
    const detail = await expectOk(await t.request(`/api/expenses/${claim.id}`, owner), expenseClaimDetailSchema);
    expect(detail.receipts.map((r) => r.filename)).toEqual(cases.map(([, filename]) => filename));
    expect(detail.receipt_count).toBe(cases.length);
  });

  it('hides receipts from other keys (404) and keys without the permission (403)', async () => {
    const claim = await newClaim();
    const receipt = await uploadOk(claim.id, PNG, 'r.png');
    await expectError(await t.request(receiptUrl(claim.id, receipt.id), other), 404);
    await expectError(await upload(claim.id, PNG, 'x.png', other), 404);
    await expectError(await t.request(receiptUrl(claim.id, receipt.id), { ...other, method: 'DELETE' }), 404);
    const noPermission = (await t.createKey(t.token, { file_permission: true, mount_permission: true })).key;
    await expectError(await t.request(receiptUrl(claim.id, receipt.id), { apiKey: noPermission }), 403);
    await expectError(await t.request(receiptUrl(claim.id, 'no-such-receipt'), owner), 404);
    expect(await rowsOf(claim.id)).toHaveLength(1);
  });

  it.each([
    ['a type it does not take', patternBytes(100, 9), 'notes.txt', 'unsupported_type'],
    ['a name without an extension', PNG, 'receipt', 'unsupported_type'],
    ['bytes of another type than the name says', PDF, 'fake.png', 'signature_mismatch'],
    ['HTML named as an image', Buffer.from('<html><script>alert(1)</script></html>'), 'x.jpg', 'signature_mismatch'],
    ['an empty file', Buffer.alloc(0), 'empty.pdf', 'signature_mismatch'],
  ])('answers 400 for %s and keeps nothing', async (_name, bytes, filename, issue) => {
    const claim = await newClaim();
    const body = await expectError(await upload(claim.id, bytes, filename), 400);
    expect(body.data).toMatchObject({ field: 'file', issue });
    expect(await rowsOf(claim.id)).toEqual([]);
    expect(await objectsOf(claim.id)).toEqual([]);
  });

  it('answers 400 for a body that is not a form, and 413 past the max upload size, keeping nothing', async () => {
    const claim = await newClaim();
    await expectError(await t.request(`/api/expenses/${claim.id}/receipts`, { ...owner, json: { file: 'x' } }), 400);
    await expectOk(await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: 0.002 } }), systemSettingsSchema);
    try {
      const tooBig = Buffer.concat([PDF, patternBytes(3000, 6)]);
      const body = await expectError(await upload(claim.id, tooBig, 'big.pdf'), 413);
      expect(body.data).toMatchObject({ fileSize: tooBig.length });
      await uploadOk(claim.id, PDF, 'fits.pdf');
    } finally {
      await expectOk(await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { max_upload_size: 100 } }), systemSettingsSchema);
    }
    expect(await rowsOf(claim.id)).toHaveLength(1);
    expect(await objectsOf(claim.id)).toHaveLength(1);
  });

  it('changes receipts only while the claim can be edited, and by its owner', async () => {
    const claim = await newClaim();
    const receipt = await uploadOk(claim.id, PNG, 'keep.png');
    await expectError(await upload(claim.id, PNG, 'admin.png', { token: t.token }), 403);
    await expectStoredFold(t.db, await expectOk(await t.request(`/api/expenses/${claim.id}/submit`, { ...owner, method: 'POST' }), expenseClaimDetailSchema));
    expect((await expectError(await upload(claim.id, PNG, 'late.png'), 409)).data.status).toBe('submitted');
    expect((await expectError(await t.request(receiptUrl(claim.id, receipt.id), { ...owner, method: 'DELETE' }), 409)).data.status).toBe('submitted');
    expect(await objectsOf(claim.id)).toHaveLength(1);
  });

  it('deletes a receipt’s object with its record', async () => {
    const claim = await newClaim();
    const gone = await uploadOk(claim.id, PNG, 'gone.png');
    const kept = await uploadOk(claim.id, JPEG, 'kept.jpg');
    await expectOk(await t.request(receiptUrl(claim.id, gone.id), { ...owner, method: 'DELETE' }), v.null());
    await expectError(await t.request(receiptUrl(claim.id, gone.id), owner), 404);
    const rows = await rowsOf(claim.id);
    expect(rows.map((row) => row.id)).toEqual([kept.id]);
    expect(await objectsOf(claim.id)).toEqual(rows.map((row) => row.storage_path));
  });

  it('deletes every receipt’s object with the claim', async () => {
    const claim = await newClaim();
    await uploadOk(claim.id, PNG, 'one.png');
    await uploadOk(claim.id, PDF, 'two.pdf');
    expect(await objectsOf(claim.id)).toHaveLength(2);
    await expectOk(await t.request(`/api/expenses/${claim.id}`, { ...owner, method: 'DELETE' }), v.null());
    expect(await objectsOf(claim.id)).toEqual([]);
    expect(await rowsOf(claim.id)).toEqual([]);
  });

  it('removes the stored object when the claim was submitted while its receipt was uploading', async () => {
    const claim = await newClaim();
    const boundary = 'receipt-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`;
    let push!: ReadableStreamDefaultController<Uint8Array>;
    let readingBody!: () => void;
    const bodyRead = new Promise<void>((resolve) => (readingBody = resolve));
    // The stream asks for more only once the server has taken the first chunk: the upload is then past its first
    // look at the claim and streaming to storage.
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        push = controller;
        controller.enqueue(new Uint8Array(Buffer.concat([Buffer.from(head), PNG.subarray(0, 1000)])));
      },
      pull: () => readingBody(),
    });
    const uploading = t.request(`/api/expenses/${claim.id}/receipts`, {
      ...owner,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    await bodyRead;
    await expectStoredFold(t.db, await expectOk(await t.request(`/api/expenses/${claim.id}/submit`, { ...owner, method: 'POST' }), expenseClaimDetailSchema));
    push.enqueue(new Uint8Array(Buffer.concat([PNG.subarray(1000), Buffer.from(`\r\n--${boundary}--\r\n`)])));
    push.close();
    expect((await expectError(await uploading, 409)).data.status).toBe('submitted');
    expect(await rowsOf(claim.id)).toEqual([]);
    expect(await objectsOf(claim.id)).toEqual([]);
  });

  it('keeps the expense area out of the mount file system: refused by path, absent from listings', async () => {
    const claim = await newClaim();
    const receipt = await uploadOk(claim.id, PNG, 'secret.png');
    const key = (await rowsOf(claim.id)).find((row) => row.id === receipt.id)?.storage_path ?? '';
    const mountKey = (await t.createKey(t.token, { name: `mount-${kind}`, mount_permission: true, basic_path: '/' })).key;
    for (const fs of [fsClient(t, { token: t.token }), fsClient(t, { apiKey: mountKey })]) {
      const names = await fs.names(rootMount, true);
      expect(names).not.toContain(EXPENSE_AREA);
      for (const path of [`${rootMount}/${EXPENSE_AREA}`, `${rootMount}/${key}`]) {
        for (const res of [await fs.list(path), await fs.get(path), await fs.download(path), await fs.remove(path)]) {
          expect(res.status).toBe(400);
        }
      }
      const planted = await fs.upload(`${rootMount}/${EXPENSE_AREA}/${claim.id}`, 'planted.png', PNG);
      expect(planted.status).toBe(400);
    }
    expect(await objectsOf(claim.id)).toEqual([key]);
  });
});
