import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/fixtures/test-app';
import { shareXUploaders, type SxcuFile } from './sharex';

/** What ShareX hands an uploader: a file (image and file uploaders) or a text (text uploader). */
type Input = { file: Blob; filename: string } | { text: string };

const INTERPRETED = new Set(['Version', 'Name', 'DestinationType', 'RequestMethod', 'RequestURL', 'Headers', 'Body', 'FileFormName', 'Data', 'URL', 'ErrorMessage']);

/** `{json:a.b}` of ShareX's URL syntax: a dotted path into the answer. Anything else in braces is not ours to use. */
function expand(template: string, answer: unknown): string {
  return template.replace(/\{(\w+):([^}]*)\}/g, (_all, fn: string, path: string) => {
    if (fn !== 'json') throw new Error(`the test does not interpret {${fn}:…}`);
    const value = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], answer);
    return String(value);
  });
}

/**
 * Does what ShareX does with a custom uploader (ShareX.UploadersLib CustomUploaderItem): builds the request from
 * the file, sends it, and reads the link (or the error message) from the answer. Fields it does not interpret
 * fail the test, so the file cannot say more than is checked here.
 */
async function runSxcu(sxcu: SxcuFile, input: Input): Promise<{ status: number; url: string; error: string }> {
  for (const field of Object.keys(sxcu)) expect(INTERPRETED, `field ${field}`).toContain(field);
  // ShareX rewrites the `$…$` syntax of files from 13.7.1 and older: ours must be newer.
  expect(Number(sxcu.Version.split('.')[0])).toBeGreaterThanOrEqual(14);
  let body: BodyInit;
  const headers = new Headers(sxcu.Headers);
  if (sxcu.Body === 'MultipartFormData') {
    if (!('file' in input) || !sxcu.FileFormName) throw new Error('a form uploader takes a file');
    body = new FormData();
    body.append(sxcu.FileFormName, input.file, input.filename);
  } else {
    if (!('text' in input) || sxcu.Data === undefined) throw new Error('a JSON uploader takes a text');
    // ShareX JSON-escapes {input} in a JSON body (URLHelpers.JSONEncode: the JSON string without its quotes).
    body = sxcu.Data.replace(/\{input\}/gi, () => JSON.stringify(input.text).slice(1, -1));
    headers.set('content-type', 'application/json');
  }
  const res = await fetch(sxcu.RequestURL, { method: sxcu.RequestMethod, headers, body });
  const answer: unknown = await res.json();
  return { status: res.status, url: res.ok ? expand(sxcu.URL, answer) : '', error: res.ok ? '' : expand(sxcu.ErrorMessage, answer) };
}

describe('ShareX custom uploaders', () => {
  let t: TestApp;
  let origin: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    origin = await t.listen();
    token = await t.login();
  });
  afterAll(() => t.close());

  it('upload a screenshot through /api/upload and answer its share page', async () => {
    const key = await t.createKey(token, { name: 'laptop', file_permission: true });
    const { files, text } = shareXUploaders(key, origin, 'https://clip.example');
    expect(text).toBeUndefined();
    if (!files) throw new Error('a file key gets a file uploader');

    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
    const result = await runSxcu(files, { file: new Blob([bytes], { type: 'image/png' }), filename: 'Screenshot 2030-01-15.png' });
    expect(result.status).toBe(201);
    const slug = /^https:\/\/clip\.example\/file\/([\w-]+)$/.exec(result.url)?.[1];
    expect(slug, result.url).toBeDefined();

    const info = (await (await fetch(`${origin}/api/public/files/${slug}`)).json()) as { data: { filename: string; mimetype: string; downloadUrl: string } };
    expect(info.data).toMatchObject({ filename: 'Screenshot 2030-01-15.png', mimetype: 'image/png' });
    const download = await fetch(await t.overHttp(new URL(info.data.downloadUrl, origin).href));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it('post text through /api/paste, escaped as ShareX escapes it, and answer the paste page', async () => {
    const key = await t.createKey(token, { name: 'notes', text_permission: true });
    const { files, text } = shareXUploaders(key, origin, origin);
    expect(files).toBeUndefined();
    if (!text) throw new Error('a text key gets a text uploader');

    const content = 'line "one"\n\ttab \\ back {input} %y 你好 ✓';
    const result = await runSxcu(text, { text: content });
    expect(result.status).toBe(201);
    const slug = new RegExp(`^${origin}/paste/([\\w-]+)$`).exec(result.url)?.[1];
    expect(slug, result.url).toBeDefined();
    expect(await (await fetch(`${origin}/api/raw/${slug}`)).text()).toBe(content);
  });

  it('show the server\'s message when the key is refused', async () => {
    const key = await t.createKey(token, { name: 'both', text_permission: true, file_permission: true });
    const { files, text } = shareXUploaders(key, origin, origin);
    if (!files || !text) throw new Error('a key with both permissions gets both uploaders');
    await t.request(`/api/admin/api-keys/${key.id}`, { method: 'PUT', token, json: { text_permission: false } });

    const refused = await runSxcu(text, { text: 'hello' });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatch(/permission/i);
  });
});
