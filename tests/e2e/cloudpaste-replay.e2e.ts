import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';
import { adminToken, launchBrowser, newPerson, startServer, takeCspViolations, type RunningServer } from './harness';

/**
 * CloudPaste's frontend (ling-drag0n/CloudPaste at 929c46ed) against Clipstash's CloudPaste face, without building
 * it: a page on another origin, as CloudPaste's would be, sends the requests its api/ services send and reads each
 * answer the way its components read it. The comments name the CloudPaste file each step follows.
 */

/** CloudPaste's backend URL: its frontend puts `/api` after it (frontend/src/api/config.js). */
const FACE = '/compat/cloudpaste';

/** A blank page on an origin of its own: where CloudPaste's frontend would be served. */
async function blankOrigin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>CloudPaste</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

interface Auth {
  token?: string;
  apiKey?: string;
}
interface CallOptions {
  method?: string;
  body?: unknown;
  /** Bytes sent as they are (the parts of a multipart upload), `application/octet-stream`. */
  raw?: boolean;
}
type CloudPasteWindow = Window & {
  /** What frontend/src/api/client.js does: auth header, JSON, and it throws `message` on a failure. */
  cloudpaste: (base: string, endpoint: string, auth: Auth, options?: CallOptions) => Promise<Record<string, unknown>>;
};

/** Installed in the page before each test: the client every replayed call goes through. */
function installClient() {
  (window as unknown as CloudPasteWindow).cloudpaste = async (base, endpoint, auth, options = {}) => {
    const headers: Record<string, string> = {};
    if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
    else if (auth.apiKey) headers.Authorization = `ApiKey ${auth.apiKey}`;
    headers['Content-Type'] = options.raw ? 'application/octet-stream' : 'application/json';
    const body = options.body === undefined || options.raw ? (options.body as BodyInit | undefined) : JSON.stringify(options.body);
    const response = await fetch(`${base}/api${endpoint}`, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    const data = response.headers.get('content-type')?.includes('application/json') ? await response.json() : await response.text();
    if (!response.ok) throw Object.assign(new Error(data?.message ?? `HTTP ${response.status}`), { status: response.status });
    if (data && typeof data === 'object' && 'code' in data && ![200, 201, 202].includes(data.code)) throw new Error(data.message);
    return data;
  };
}

describe('CloudPaste\'s frontend, replayed from its own origin against the CloudPaste face', () => {
  let server: RunningServer;
  let browser: Browser;
  let s3: RunningS3rver;
  let frontend: Awaited<ReturnType<typeof blankOrigin>>;
  let page: Page;
  let base: string;
  let token: string;
  let apiKey: string;
  let s3ConfigId: string;

  beforeAll(async () => {
    frontend = await blankOrigin();
    [server, browser, s3] = await Promise.all([startServer({ CORS_ORIGINS: frontend.origin }), launchBrowser(), startS3rver()]);
    base = `${server.url}${FACE}`;
    token = await adminToken(server.url);
    const call = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/api${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      return ((await res.json()) as { data: T }).data;
    };
    s3ConfigId = (await call<{ id: string }>('/s3-configs', s3.configRequest())).id;
    await call('/admin/mounts', { name: 'Bucket', storage_type: 'S3', storage_config_id: s3ConfigId, mount_path: '/s3' });
    apiKey = (await call<{ key: string }>('/admin/api-keys', { name: 'cp', text_permission: true, file_permission: true, mount_permission: true })).key;

    const person = await newPerson(browser);
    await person.context.addInitScript(installClient);
    page = person.page;
    await page.goto(frontend.origin);
  });
  afterEach(() => {
    expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await s3?.stop();
    await frontend?.close();
  });

  it('logs in and shows a paste, open and behind its password, as PasteViewMain.vue reads it', async () => {
    const seen = await page.evaluate(
      async ({ base }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        // AdminLogin: POST /admin/login, then `data.token`.
        const login = await cloudpaste(base, '/admin/login', {}, { body: { username: 'admin', password: 'e2e-admin-password' } });
        const token = (login.data as { token: string }).token;
        // MarkdownEditor.vue: createPaste, then `result.data.slug`.
        const open = await cloudpaste(base, '/paste', { token }, { body: { content: '# Hello from CloudPaste', remark: '', expiresAt: null, maxViews: 0 } });
        const locked = await cloudpaste(base, '/paste', { token }, { body: { content: 'behind a password', password: 'pw' } });
        const [openSlug, lockedSlug] = [(open.data as { slug: string }).slug, (locked.data as { slug: string }).slug];

        // loadPaste(): `result = await getPaste(slug)`; `result.requiresPassword` asks for it, else `result.content`.
        const visitor = {};
        const shown = await cloudpaste(base, `/paste/${openSlug}`, visitor);
        const asked = await cloudpaste(base, `/paste/${lockedSlug}`, visitor);
        // submitPassword(): getPaste(slug, password) POSTs it.
        const unlocked = await cloudpaste(base, `/paste/${lockedSlug}`, visitor, { body: { password: 'pw' } });
        let refused = { status: 0, message: '' };
        try {
          await cloudpaste(base, `/paste/${lockedSlug}`, visitor, { body: { password: 'wrong' } });
        } catch (error) {
          refused = { status: (error as { status: number }).status, message: (error as Error).message };
        }
        return {
          content: shown.content,
          openRequiresPassword: shown.requiresPassword,
          asked: { requiresPassword: asked.requiresPassword, hasPassword: asked.hasPassword, content: asked.content ?? null },
          unlocked: unlocked.content,
          refused,
        };
      },
      { base },
    );
    expect(seen).toEqual({
      content: '# Hello from CloudPaste',
      openRequiresPassword: false,
      asked: { requiresPassword: true, hasPassword: true, content: null },
      unlocked: 'behind a password',
      refused: { status: 401, message: expect.stringMatching(/password/i) },
    });
  });

  it('uploads on /upload: presign, PUT to storage, commit with `password: ""` (fileService.js directUploadFile)', async () => {
    const seen = await page.evaluate(
      async ({ base, token, s3ConfigId }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        const file = new File(['bytes from the upload page'], 'page.txt', { type: 'text/plain' });
        const presignedData = await cloudpaste(base, '/s3/presign', { token }, {
          body: { s3_config_id: s3ConfigId, filename: file.name, mimetype: 'text/plain', path: '', slug: '', size: file.size },
        });
        if (!presignedData.success || !presignedData.data) throw new Error('no presign');
        const { upload_url, file_id, storage_path, s3_url, slug, contentType } = presignedData.data as Record<string, string>;
        const put = await fetch(upload_url!, { method: 'PUT', headers: { 'Content-Type': contentType || file.type }, body: file });
        const etag = put.headers.get('ETag');
        const completeData = await cloudpaste(base, '/s3/commit', { token }, {
          body: {
            file_id, s3_config_id: s3ConfigId, storage_path, s3_url, filename: file.name, mimetype: contentType || file.type,
            size: file.size.toString(), etag: etag ? etag.replace(/"/g, '') : null, slug, remark: '', password: '', expires_in: '0', max_views: '0',
          },
        });
        // FileView: `getPublicFile(slug)` then its `data`.
        const shared = await cloudpaste(base, `/public/files/${slug}`, {});
        return {
          put: put.status,
          etagRead: etag !== null,
          committed: completeData.success,
          slug: (completeData.data as { slug: string }).slug === slug,
          shared: shared.data as { filename: string; requires_password: boolean },
        };
      },
      { base, token, s3ConfigId },
    );
    expect(seen).toMatchObject({ put: 200, etagRead: true, committed: true, slug: true, shared: { filename: 'page.txt', requires_password: false } });
  });

  it('uploads to a mount in parts and aborts one, the folder as path (fsService.js performMultipartUpload)', async () => {
    const seen = await page.evaluate(
      async ({ base, token }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        const auth = { token };
        const path = '/s3';
        const chunkSize = 5 * 1024 * 1024;
        const bytes = new Uint8Array(chunkSize + 1024).map((_, i) => i % 251);
        const file = new File([bytes], 'big.bin');
        const totalChunks = Math.ceil(file.size / chunkSize);

        const initResult = await cloudpaste(base, '/admin/fs/multipart/init', auth, { body: { path, contentType: null, fileSize: file.size, filename: file.name } });
        const { uploadId, key } = initResult.data as { uploadId: string; key: string };
        const uploadedParts: { partNumber: number; etag: string }[] = [];
        for (let i = 0; i < totalChunks; i++) {
          const partNumber = i + 1;
          const chunk = file.slice(i * chunkSize, Math.min((i + 1) * chunkSize, file.size));
          const query = `path=${encodeURIComponent(path)}&uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}&isLastPart=${i === totalChunks - 1}&key=${encodeURIComponent(key)}`;
          const partResult = await cloudpaste(base, `/admin/fs/multipart/part?${query}`, auth, { body: chunk, raw: true });
          if (!partResult.success) throw new Error(String(partResult.message));
          uploadedParts.push({ partNumber, etag: (partResult.data as { etag: string }).etag });
        }
        const completeResult = await cloudpaste(base, '/admin/fs/multipart/complete', auth, {
          body: { path, uploadId, parts: uploadedParts, key, contentType: null, fileSize: file.size },
        });
        // The explorer lists the folder again: `data.items`.
        const listing = await cloudpaste(base, `/admin/fs/list?path=${encodeURIComponent(path)}`, auth);
        const listed = (listing.data as { items: { name: string; size: number }[] }).items.find((item) => item.name === 'big.bin');

        // Cancel: init, then abortMultipartUpload(path, uploadId, key).
        const second = await cloudpaste(base, '/admin/fs/multipart/init', auth, { body: { path, contentType: null, fileSize: file.size, filename: 'cancelled.bin' } });
        const started = second.data as { uploadId: string; key: string };
        const aborted = await cloudpaste(base, '/admin/fs/multipart/abort', auth, { body: { path, uploadId: started.uploadId, key: started.key } });
        return { parts: uploadedParts.length, completed: completeResult.success, size: listed?.size, aborted: aborted.success };
      },
      { base, token },
    );
    expect(seen).toEqual({ parts: 2, completed: true, size: 5 * 1024 * 1024 + 1024, aborted: true });
    expect(await s3.pendingUploads()).toEqual([]);
  });

  it('lists texts and files as TextManagement.vue and FileManagement.vue read them, for the admin and a key', async () => {
    const seen = await page.evaluate(
      async ({ base, token, apiKey }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        await cloudpaste(base, '/paste', { apiKey }, { body: { content: 'a key\'s paste' } });
        // TextManagement.vue, admin: getAllPastes(page, limit) → `result.data` an array, `result.pagination.total`.
        const all = await cloudpaste(base, '/admin/pastes?page=1&limit=10', { token });
        // API key user: getUserPastes(limit, offset) → `result.data` an array.
        const mine = await cloudpaste(base, '/user/pastes?limit=10&offset=0', { apiKey });
        // FileManagement.vue: getFiles / getUserFiles → `response.data.files`.
        const files = await cloudpaste(base, '/admin/files?limit=50&offset=0', { token });
        const myFiles = await cloudpaste(base, '/user/files?limit=50&offset=0', { apiKey });
        const pastes = all.data as { slug: string; created_at: string; max_views: number }[];
        return {
          pastesIsArray: Array.isArray(all.data),
          pastes: pastes.length,
          total: (all.pagination as { total: number }).total,
          everyPasteDated: pastes.every((paste) => !Number.isNaN(Date.parse(paste.created_at))),
          mine: Array.isArray(mine.data) ? (mine.data as unknown[]).length : -1,
          files: ((files.data as { files: { filename: string }[] }).files ?? []).map((file) => file.filename),
          myFiles: Array.isArray((myFiles.data as { files: unknown[] }).files),
        };
      },
      { base, token, apiKey },
    );
    expect(seen).toEqual({ pastesIsArray: true, pastes: 3, total: 3, everyPasteDated: true, mine: 1, files: ['page.txt'], myFiles: true });
  });
  it('edits a file share from the file list, as FileManagement.vue and FileEditModal.vue send it, for the admin and a key', async () => {
    const direct = async (name: string, auth: string) => {
      const res = await fetch(`${server.url}/api/upload-direct/${name}`, { method: 'PUT', headers: { Authorization: auth }, body: `bytes of ${name}` });
      if (!res.ok) throw new Error(`upload-direct answered ${res.status}`);
      return ((await res.json()) as { data: { id: string; slug: string } }).data;
    };
    const [adminFile, keyFile] = [await direct('admin-edit.txt', `Bearer ${token}`), await direct('key-edit.txt', `ApiKey ${apiKey}`)];

    const seen = await page.evaluate(
      async ({ base, token, apiKey, adminFile, keyFile }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        /** openEditModal(), the dialog's form as the user leaves it, saveChanges(), updateFileMetadata(), loadFiles(). */
        const editAs = async (area: 'admin' | 'user', auth: { token?: string; apiKey?: string }, id: string, form: { slug?: string; remark: string; maxViews: string; expiryHours: number; password: string }) => {
          const response = await cloudpaste(base, `/${area}/files/${id}`, auth);
          const file = response.data as Record<string, unknown>;
          // FileEditModal.vue's watch(): the form starts from the detail.
          const fileData = {
            id: file.id as string,
            slug: form.slug ?? ((file.slug as string) || ''),
            remark: form.remark,
            max_views: form.maxViews === '' ? null : form.maxViews,
            password: form.password,
            use_proxy: file.use_proxy === 1 || file.use_proxy === true,
          };
          const updatedFile: Record<string, unknown> = {
            id: fileData.id,
            slug: fileData.slug.trim() || null,
            remark: fileData.remark.trim() || null,
            max_views: fileData.max_views !== null ? parseInt(fileData.max_views, 10) : null,
            use_proxy: fileData.use_proxy,
          };
          if (fileData.password) updatedFile.password = fileData.password;
          if (form.expiryHours > 0) {
            const expiresAt = new Date();
            expiresAt.setHours(expiresAt.getHours() + form.expiryHours);
            updatedFile.expires_at = expiresAt.toISOString();
          } else {
            updatedFile.expires_at = null;
          }
          // FileManagement.vue's updateFileMetadata(): these fields, then `response.success`.
          const saved = await cloudpaste(base, `/${area}/files/${updatedFile.id as string}`, auth, {
            method: 'PUT',
            body: { remark: updatedFile.remark, slug: updatedFile.slug, expires_at: updatedFile.expires_at, max_views: updatedFile.max_views, password: updatedFile.password, use_proxy: updatedFile.use_proxy },
          });
          const list = await cloudpaste(base, `/${area}/files?limit=8&offset=0`, auth);
          const listed = (list.data as { files: Record<string, unknown>[] }).files.find((item) => item.id === id);
          return {
            detail: { slug: file.slug, max_views: file.max_views, expires_at: file.expires_at, has_password: file.has_password },
            success: saved.success,
            listed: { slug: listed?.slug, remark: listed?.remark, max_views: listed?.max_views, has_password: listed?.has_password, expiring: listed?.expires_at !== null },
          };
        };
        // The admin keeps the link (the field as it came) and sets a remark, a view limit, a day and a password.
        const admin = await editAs('admin', { token }, adminFile.id, { remark: ' from CloudPaste ', maxViews: '3', expiryHours: 24, password: 'pw' });
        // The key empties the link field (`slug: null`: kept) and the view limit (`max_views: null`: none).
        const key = await editAs('user', { apiKey }, keyFile.id, { slug: '', remark: 'key note', maxViews: '', expiryHours: 0, password: '' });
        // Another share's link: refused, and the dialog shows the message.
        let conflict = '';
        try {
          await cloudpaste(base, `/user/files/${keyFile.id}`, { apiKey }, { method: 'PUT', body: { slug: adminFile.slug, remark: null, max_views: null, expires_at: null, use_proxy: true } });
        } catch (error) {
          conflict = (error as Error).message;
        }
        return { admin, key, conflict };
      },
      { base, token, apiKey, adminFile, keyFile },
    );
    expect(seen).toEqual({
      admin: {
        detail: { slug: adminFile.slug, max_views: 0, expires_at: null, has_password: false },
        success: true,
        listed: { slug: adminFile.slug, remark: 'from CloudPaste', max_views: 3, has_password: true, expiring: true },
      },
      key: {
        detail: { slug: keyFile.slug, max_views: 0, expires_at: null, has_password: false },
        success: true,
        listed: { slug: keyFile.slug, remark: 'key note', max_views: 0, has_password: false, expiring: false },
      },
      conflict: expect.stringMatching(/taken/),
    });
    const locked = await fetch(`${server.url}/api/file-download/${adminFile.slug}`);
    expect(locked.status).toBe(401);
    expect(await (await fetch(`${server.url}/api/file-download/${adminFile.slug}?password=pw`)).text()).toBe('bytes of admin-edit.txt');
  });

  it('edits a paste from the text list by its slug, as TextManagement.vue and PasteEditModal.vue send it', async () => {
    const seen = await page.evaluate(
      async ({ base, token }) => {
        const cloudpaste = (window as unknown as CloudPasteWindow).cloudpaste;
        const created = await cloudpaste(base, '/paste', { token }, { body: { content: 'to be edited', slug: 'cp-edit-me', password: 'pw' } });
        const id = (created.data as { id: string }).id;
        // openEditModal(): getPasteById(id); the dialog reads `slug`, `remark`, `expires_at`, `max_views`, `content`.
        const paste = (await cloudpaste(base, `/admin/pastes/${id}`, { token })).data as Record<string, unknown>;
        // saveEdit(): a new link, two views, no password, a day; submitEdit(): updatePaste(data.slug, data).
        const expiresAt = new Date();
        expiresAt.setHours(expiresAt.getHours() + 24);
        const data = {
          id: paste.id, slug: paste.slug, content: paste.content, remark: 'edited in CloudPaste', maxViews: 2,
          newSlug: 'cp-edited', clearPassword: true, expiresAt: expiresAt.toISOString(),
        };
        const result = await cloudpaste(base, `/admin/pastes/${data.slug as string}`, { token }, { method: 'PUT', body: data });
        // loadPastes(): the list again.
        const list = await cloudpaste(base, '/admin/pastes?page=1&limit=10', { token });
        const listed = (list.data as Record<string, unknown>[]).find((item) => item.id === id);
        const opened = await cloudpaste(base, '/paste/cp-edited', {});
        return {
          detail: { slug: paste.slug, content: paste.content, has_password: paste.has_password, max_views: paste.max_views },
          answered: (result.data as { slug: string }).slug,
          listed: { slug: listed?.slug, remark: listed?.remark, max_views: listed?.max_views, has_password: listed?.has_password },
          opened: { content: opened.content, requiresPassword: opened.requiresPassword },
        };
      },
      { base, token },
    );
    expect(seen).toEqual({
      detail: { slug: 'cp-edit-me', content: 'to be edited', has_password: true, max_views: 0 },
      answered: 'cp-edited',
      listed: { slug: 'cp-edited', remark: 'edited in CloudPaste', max_views: 2, has_password: false },
      opened: { content: 'to be edited', requiresPassword: false },
    });
  });
});
