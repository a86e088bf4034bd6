import { execFile } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../tests/fixtures/test-app';

const run = promisify(execFile);
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The `sh` blocks of the README's "Use it from scripts", by the comment on their first line. */
function recipes(): Map<string, string> {
  const section = README.split(/^## Use it from scripts$/m)[1]?.split(/^## /m)[0] ?? '';
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  return new Map(blocks.map((block) => [/^# (.*)$/m.exec(block)?.[1] ?? '', block]));
}

/**
 * Runs one recipe as written, after the setup recipe, in bash with `set -euo pipefail` (a failing step fails the
 * test). The README's placeholders (server, key, example ids) are replaced by this test's values; each must be there.
 */
async function runRecipe(title: string, cwd: string, replace: Record<string, string> = {}): Promise<string> {
  const all = recipes();
  let script = `${all.get('Setup: your server and your key, and a helper for JSON calls')}\n${all.get(title)}`;
  expect(all.has(title), `README recipe "${title}"`).toBe(true);
  for (const [placeholder, value] of Object.entries(replace)) {
    expect(script, `placeholder ${placeholder}`).toContain(placeholder);
    script = script.replaceAll(placeholder, value);
  }
  const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, maxBuffer: 1024 * 1024 });
  return stdout.trim();
}

describe('the README\'s recipes for scripts', () => {
  const t = useTestApp();
  let origin: string;
  let key: string;
  let work: string;
  let source: Server;
  let sourceUrl: string;
  const photo = randomBytes(300 * 1024);
  const setup = () => ({ 'https://clip.example.com': origin, 'your-api-key': key });
  const slugOf = (link: string, kind: 'paste' | 'file') => new RegExp(`^${origin}/${kind}/([\\w-]+)$`).exec(link)?.[1] ?? '';
  const fileBytes = async (slug: string) => {
    const info = (await (await fetch(`${origin}/api/public/files/${slug}`)).json()) as { data: { downloadUrl: string } };
    return Buffer.from(await (await fetch(new URL(info.data.downloadUrl, origin))).arrayBuffer());
  };

  beforeAll(async () => {
    origin = await t.listen();
    key = (await t.createKey(t.token, { name: 'script', text_permission: true, file_permission: true })).key;
    work = mkdtempSync(join(tmpdir(), 'clipstash-recipes-'));
    // The web address of the URL recipe: a server of this test's own (the test app admits private addresses).
    source = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': photo.length }).end(photo));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/photo.jpg`;
  });
  afterAll(async () => {
    await new Promise((resolve) => source.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  it('uses tools this machine has', async () => {
    await expect(run('bash', ['-c', 'command -v curl && command -v jq'])).resolves.toBeDefined();
  });

  it('posts, uploads small, large and from a web address, lists and deletes', async () => {
    const link = await runRecipe('Paste: standard input in, link out', work, setup());
    const pasteSlug = slugOf(link, 'paste');
    expect(pasteSlug, link).not.toBe('');
    expect(await (await fetch(`${origin}/api/raw/${pasteSlug}`)).text()).toBe('Hello from a script\n');

    const report = randomBytes(64 * 1024);
    writeFileSync(join(work, 'report.pdf'), report);
    const small = slugOf(await runRecipe('File: one request', work, setup()), 'file');
    expect(await fileBytes(small)).toEqual(report);

    // 8 MiB parts: two full parts and a short last one.
    const backup = randomBytes(8 * 1024 * 1024 * 2 + 12_345);
    writeFileSync(join(work, 'backup.tar'), backup);
    const large = slugOf(await runRecipe('Large file: multipart', work, setup()), 'file');
    expect((await fileBytes(large)).equals(backup)).toBe(true);

    const fromUrl = slugOf(await runRecipe('From a web address', work, { ...setup(), 'https://example.com/photo.jpg': sourceUrl }), 'file');
    expect((await fileBytes(fromUrl)).equals(photo)).toBe(true);

    const listing = await runRecipe('List', work, setup());
    for (const slug of [pasteSlug, small, large, fromUrl]) expect(listing).toContain(`\t${slug}\t`);
    const idOf = (slug: string) => listing.split('\n').find((line) => line.includes(`\t${slug}\t`))?.split('\t')[0] ?? '';

    const deleted = await runRecipe('Delete', work, {
      ...setup(),
      'slug=AbC123': `slug=${pasteSlug}`,
      FILE_ID_1: idOf(small),
      FILE_ID_2: idOf(large),
    });
    expect(deleted.split('\n')).toEqual(['Paste deleted', '{"deleted":2,"missing":0,"failed":0}']);
    expect((await fetch(`${origin}/api/raw/${pasteSlug}`)).status).toBe(404);
    expect((await fetch(`${origin}/api/public/files/${small}`)).status).toBe(404);
    expect((await fetch(`${origin}/api/public/files/${fromUrl}`)).status).toBe(200);
    // About 1.5 s alone; each recipe starts bash, curl and jq many times, slow on a busy machine.
  }, 60_000);

  it('posts an encrypted paste whose link\'s key decrypts what the server stored', async () => {
    const link = await runRecipe('Encrypted paste: standard input in, link with its key out', work, setup());
    const [, slug = '', key = ''] = new RegExp(`^${origin}/paste/([\\w-]+)#key=([\\w-]+)$`).exec(link) ?? [];
    expect(slug, link).not.toBe('');
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);

    const answer = (await (await fetch(`${origin}/api/paste/${slug}`)).json()) as {
      data: { content: string; encryption: string | null; contentHtml?: string };
    };
    expect(answer.data.encryption).toBe('aes-256-gcm');
    expect(answer.data.contentHtml).toBeUndefined();
    const payload = Buffer.from(answer.data.content, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), payload.subarray(0, 12));
    decipher.setAuthTag(payload.subarray(-16));
    const text = Buffer.concat([decipher.update(payload.subarray(12, -16)), decipher.final()]).toString('utf8');
    expect(text).toBe('A secret from a script\n');
    expect(answer.data.content).not.toContain('secret');
  }, 30_000);
});
