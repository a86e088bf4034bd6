import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { davClient } from '../../../tests/fixtures/dav';
import { bytesOf, fileClient } from '../../../tests/fixtures/files';
import { fsClient, mountOfKind, type MountOfKind } from '../../../tests/fixtures/fs';
import { searchClient } from '../../../tests/fixtures/search';
import { expectError, expectOk, HOUR, useTestApp } from '../../../tests/fixtures/test-app';
import { fsThumbnailLinksSchema } from '../../../contract/thumbnails';
import { THUMBNAIL_AREA } from '../../storage/keys';
import { createLimiter } from './queue';
import { runLimited } from './thumbnails';

vi.setConfig({ testTimeout: 60_000 });

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

/** A minimal one-page PDF (200 × 300 points, a red rectangle), with its cross-reference table. */
function minimalPdf(): Buffer {
  const content = '1 0 0 rg 20 20 160 260 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = out.length;
    out += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A PNG of a few hundred bytes whose header claims 30,000 × 30,000 pixels: a decompression bomb's shape. */
function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = deflateSync(Buffer.alloc(30_001 * 4));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

async function webpOf(res: Response) {
  expect(res.status, await res.clone().text().catch(() => '')).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/webp');
  const bytes = await bytesOf(res);
  return { bytes, meta: await sharp(bytes).metadata() };
}

describe('thumbnails of mount files', () => {
  const t = useTestApp();
  let localRoot: string;
  let s3: MountOfKind;
  let fs: ReturnType<typeof fsClient>;

  /** The thumbnails kept in the LOCAL storage's hidden area. */
  const thumbnailsKept = () =>
    existsSync(join(localRoot, THUMBNAIL_AREA)) ? readdirSync(join(localRoot, THUMBNAIL_AREA), { recursive: true }).map(String).filter((name) => name.endsWith('.webp')).length : 0;

  beforeAll(async () => {
    localRoot = join(t.dataDir, 'storage', (await fileClient(t).builtinLocal(t.token)).id);
    fs = fsClient(t, { token: t.token });
    s3 = await mountOfKind(t, t.token, 'S3');
  });
  afterAll(async () => s3.stop());

  it('makes a WebP of each image format, a PDF page and a video frame, at both sizes, orientation applied, no metadata', async () => {
    const sources: [string, Uint8Array][] = [
      // Stored 400 × 200 with EXIF orientation 6 (turn right): shown, and thumbnailed, 200 × 400.
      ['turned.jpg', await picture(400, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer()],
      ['wide.png', await picture(2000, 1000).png().toBuffer()],
      ['photo.webp', await picture(600, 300).webp().toBuffer()],
      ['anim.gif', await picture(300, 300).gif().toBuffer()],
      ['photo.avif', await picture(300, 150).avif({ effort: 0 }).toBuffer()],
      ['phone.heic', readFileSync(join(import.meta.dirname, '../../../tests/fixtures/images/rainbow-451x461.heic'))],
      ['paper.pdf', minimalPdf()],
    ];
    // The index first (faststart), as a video made for the web has it: the server reads a video's start only.
    const clip = join(t.dataDir, 'clip.mp4');
    const video = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '1',
      '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip]);
    if (video.status === 0) sources.push(['clip.mp4', readFileSync(clip)]);
    for (const [name, bytes] of sources) await fs.uploadOk('/local/media', name, new Uint8Array(bytes));

    const expected: Record<string, [number, number]> = {
      'turned.jpg': [128, 256], 'wide.png': [256, 128], 'photo.webp': [256, 128], 'anim.gif': [256, 256], 'photo.avif': [256, 128],
      'phone.heic': [250, 256], 'paper.pdf': [171, 256], 'clip.mp4': [256, 192],
    };
    for (const [name] of sources) {
      const { meta } = await webpOf(await fs.thumbnail(`/local/media/${name}`));
      expect({ name, format: meta.format, size: [meta.width, meta.height], exif: meta.exif, icc: meta.icc }).toEqual({
        name, format: 'webp', size: expected[name], exif: undefined, icc: undefined,
      });
    }
    const large = await webpOf(await fs.thumbnail('/local/media/wide.png', 'large'));
    expect([large.meta.width, large.meta.height]).toEqual([1280, 640]);
    // Small images are not blown up.
    expect((await webpOf(await fs.thumbnail('/local/media/photo.webp', 'large'))).meta.width).toBe(600);
    expect(video.status, 'ffmpeg is installed here and in CI').toBe(0);
  });

  it('keeps thumbnails in the hidden area, answers 304 for a known ETag, and makes a new one when the file changes', async () => {
    await fs.uploadOk('/local/change', 'p.png', await picture(300, 100).png().toBuffer());
    const first = await fs.thumbnail('/local/change/p.png');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]+-grid"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect((await webpOf(first)).meta.height).toBe(85);
    const cached = readdirSync(join(localRoot, THUMBNAIL_AREA), { recursive: true }).map(String).filter((name) => name.endsWith('.webp'));
    expect(cached.length).toBeGreaterThan(0);

    const again = await fs.thumbnail('/local/change/p.png', 'grid', { 'if-none-match': etag ?? '' });
    expect(again.status).toBe(304);

    // Another file at the same path: a new ETag, a new picture, the old version's thumbnail gone.
    await t.request('/api/admin/fs/remove?path=/local/change/p.png', { token: t.token, method: 'DELETE' });
    await fs.uploadOk('/local/change', 'p.png', await picture(100, 300).png().toBuffer());
    const changed = await fs.thumbnail('/local/change/p.png', 'grid', { 'if-none-match': etag ?? '' });
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await webpOf(changed)).meta.height).toBe(256);
    const versions = readdirSync(join(localRoot, THUMBNAIL_AREA), { recursive: true }).map(String).filter((n) => n.endsWith('-grid.webp'));
    expect(versions.filter((name) => cached.includes(name) && name.includes(etag?.slice(1, 33) ?? '?'))).toEqual([]);
  });

  it('a URL naming the version is kept by the browser for good', async () => {
    await fs.uploadOk('/local/keep', 'k.png', await picture(50, 50).png().toBuffer());
    const res = await t.request('/api/admin/fs/thumbnail?path=/local/keep/k.png&size=grid&v=abc', { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it('follows the download’s access rules: a key outside its base path, no mount permission, a folder, nothing there', async () => {
    await fs.uploadOk('/local/ab', 'secret.png', await picture(20, 20).png().toBuffer());
    const inside = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/a' });
    await expectError(await fsClient(t, { apiKey: inside.key }).thumbnail('/local/ab/secret.png'), 403);
    const noMount = await t.createKey(t.token, { mount_permission: false, basic_path: '/' });
    await expectError(await fsClient(t, { apiKey: noMount.key }).thumbnail('/local/ab/secret.png'), 403);
    await expectError(await t.request('/api/user/fs/thumbnail?path=/local/ab/secret.png'), 401);
    await expectError(await fs.thumbnail('/local/ab'), 404);
    await expectError(await fs.thumbnail('/local/ab/none.png'), 404);
    await expectError(await fs.thumbnail(`/local/${THUMBNAIL_AREA}`), 400);
    await expectError(await t.request('/api/admin/fs/thumbnail?path=/local/ab/secret.png&size=huge', { token: t.token }), 400);
    const allowed = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/ab' });
    await webpOf(await fsClient(t, { apiKey: allowed.key }).thumbnail('/local/ab/secret.png'));
  });

  it('signs links for <img> only for what the caller may read, and the link shows that file alone, for two days at most', async () => {
    await fs.uploadOk('/local/a', 'mine.png', await picture(30, 30).png().toBuffer());
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/local/a' });
    const asKey = (paths: string[]) => t.request('/api/user/fs/thumbnail-links', { apiKey: key.key, json: { paths } });
    const answer = await expectOk(await asKey(['/local/a/mine.png', '/local/ab/secret.png', '/local/a/notes.txt']), fsThumbnailLinksSchema);
    expect(answer.links.map((link) => link.path)).toEqual(['/local/a/mine.png']);
    const link = answer.links[0]?.grid ?? '';
    const shown = await webpOf(await t.request(`${link}&v=1`));
    expect(shown.meta.width).toBe(30);
    const url = new URL(link, 'http://localhost');
    url.searchParams.set('path', '/local/ab/secret.png');
    await expectError(await t.request(url.pathname + url.search), 403);
    t.clock.advance(2 * 24 * HOUR + 1000);
    await expectError(await t.request(link), 403);
    t.clock.advance(-(2 * 24 * HOUR + 1000)); // the admin's session of the later tests
  });

  it('refuses a decompression bomb, a corrupt image and an unsupported type cleanly, and goes on serving', async () => {
    await fs.uploadOk('/local/bad', 'bomb.png', new Uint8Array(bombPng()));
    await fs.uploadOk('/local/bad', 'broken.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]));
    await fs.uploadOk('/local/bad', 'fake.pdf', Buffer.from('%PDF-1.4 not really'));
    await fs.uploadOk('/local/bad', 'notes.txt', Buffer.from('hello'));
    const started = Date.now();
    const bomb = await expectError(await fs.thumbnail('/local/bad/bomb.png', 'large'), 413);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(bomb.message).not.toMatch(/pixel|vips|\//);
    const broken = await expectError(await fs.thumbnail('/local/bad/broken.jpg'), 422);
    expect(broken.message).not.toMatch(/vips|jpeg|\//i);
    await expectError(await fs.thumbnail('/local/bad/fake.pdf'), 422);
    await expectError(await fs.thumbnail('/local/bad/notes.txt'), 415);
    await webpOf(await fs.thumbnail('/local/change/p.png'));
  });

  it('turns a caller away with 429 and Retry-After while the line of makings is full, and makes it once there is room', async () => {
    await fs.uploadOk('/local/busy', 'p.png', await picture(300, 100).png().toBuffer());
    // The line's two places and its 200 waiting places, held until released.
    let open = false;
    const gates: (() => void)[] = [];
    const held = Array.from({ length: 202 }, () => runLimited(() => (open ? Promise.resolve() : new Promise<void>((resolve) => gates.push(resolve)))));
    await vi.waitFor(() => expect(gates.length).toBe(2));
    try {
      const busy = await fs.thumbnail('/local/busy/p.png');
      expect(busy.headers.get('retry-after')).toBe('2');
      expect((await expectError(busy, 429)).data.error).toBe('rate_limited');
    } finally {
      open = true;
      gates.forEach((release) => release());
      await Promise.all(held);
    }
    await webpOf(await fs.thumbnail('/local/busy/p.png'));
  });

  it('drops a making from the line when every request for it has gone, and never makes it', async () => {
    await fs.uploadOk('/local/gone', 'p.png', await picture(300, 100).png().toBuffer());
    const origin = await t.listen();
    let open = false;
    const gates: (() => void)[] = [];
    // Both places taken and 150 waiting: two requests for one thumbnail join the line as one making.
    const held = Array.from({ length: 152 }, () => runLimited(() => (open ? Promise.resolve() : new Promise<void>((resolve) => gates.push(resolve)))));
    const madeBefore = thumbnailsKept();
    try {
      const url = `${origin}/api/admin/fs/thumbnail?path=${encodeURIComponent('/local/gone/p.png')}&size=grid`;
      const askers = [new AbortController(), new AbortController()];
      const answers = askers.map((asker) => fetch(url, { headers: { authorization: `Bearer ${t.token}` }, signal: asker.signal }).catch(() => undefined));
      await vi.waitFor(() => expect(runLimited.waiting()).toBe(151));
      askers[0]?.abort();
      await answers[0];
      // One asker is still there: the making keeps its place (a request after the abort has reached the server).
      expect((await fetch(`${origin}/api/health`)).status).toBe(200);
      expect(runLimited.waiting()).toBe(151);
      askers[1]?.abort();
      await vi.waitFor(() => expect(runLimited.waiting()).toBe(150));
      await Promise.all(answers);
    } finally {
      open = true;
      gates.forEach((release) => release());
      await Promise.all(held);
    }
    await vi.waitFor(() => expect(t.requestsUnderWay()).toBe(0));
    expect(thumbnailsKept()).toBe(madeBefore);
  });

  it('keeps thumbnails out of every listing, search and WebDAV, on LOCAL and S3', async () => {
    await fs.uploadOk(s3.root, 's3.png', await picture(40, 40).png().toBuffer());
    await webpOf(await fs.thumbnail(`${s3.root}/s3.png`));
    for (const root of ['/local', s3.root]) {
      const names = (await fs.listOk(root, true)).items.map((item) => item.name);
      expect(names.some((name) => name.startsWith('.clipstash'))).toBe(false);
    }
    expect(existsSync(join(localRoot, THUMBNAIL_AREA))).toBe(true);
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: '/' });
    const dav = await davClient(t, key.key, key.key).propfind('/local', '1');
    expect(dav.status).toBe(207);
    expect(await dav.text()).not.toContain('clipstash-thumbnails');
    const mounts = (await t.request('/api/admin/mounts', { token: t.token }).then((res) => res.json())) as { data: { id: string; mount_path: string }[] };
    const search = searchClient(t, { token: t.token });
    for (const mount of mounts.data) {
      await search.rebuildOk(mount.id);
      await search.complete(mount.id);
    }
    // Every thumbnail's name ends in `-grid.webp`; no file of the mounts does.
    expect(await search.paths('grid')).toEqual([]);
  });
});

describe('thumbnails of file shares', () => {
  const t = useTestApp();
  const files = () => fileClient(t);
  const thumb = (slug: string, query = '') => t.request(`/api/file-thumbnail/${slug}?size=large${query}`);

  it('asks a protected share for its password, counts no view, and takes the link token', async () => {
    const image = await picture(1600, 800).jpeg().toBuffer();
    const share = await files().uploadOk(image, { token: t.token }, { filename: 'holiday.jpg', type: 'image/jpeg', fields: { password: 'open sesame' } });
    await expectError(await thumb(share.slug), 401);
    await expectError(await thumb(share.slug, '&password=wrong'), 401);
    const shown = await webpOf(await thumb(share.slug, '&password=open%20sesame'));
    expect([shown.meta.width, shown.meta.height]).toEqual([1280, 640]);
    expect(await files().views(share.slug)).toBe(0);

    const verified = await expectOk200(await files().verify(share.slug, 'open sesame'));
    const token = new URL(verified.previewUrl ?? '').searchParams.get('token') ?? '';
    await webpOf(await thumb(share.slug, `&token=${encodeURIComponent(token)}`));
    await webpOf(await thumb(share.slug, `&token=${encodeURIComponent(token)}`));
    expect(await files().views(share.slug)).toBe(1);
    await expectError(await thumb(share.slug, '&token=1.forged'), 403);
  });

  it('a share with a view limit shows a thumbnail only with its link token', async () => {
    const share = await files().uploadOk(await picture(300, 300).png().toBuffer(), { token: t.token }, {
      filename: 'once.png', type: 'image/png', fields: { max_views: '2' },
    });
    await expectError(await thumb(share.slug), 403);
    const info = await files().infoOk(share.slug);
    const token = new URL(info.previewUrl ?? '').searchParams.get('token') ?? '';
    await webpOf(await thumb(share.slug, `&token=${encodeURIComponent(token)}`));
    expect(await files().views(share.slug)).toBe(1);
  });

  async function expectOk200(res: Response) {
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { previewUrl?: string } }).data;
  }
});

describe('the thumbnail queue', () => {
  it('runs at most two at once and turns callers away past its line', async () => {
    const run = createLimiter(2, 3);
    let active = 0;
    let most = 0;
    const gates: (() => void)[] = [];
    const task = () =>
      run(async () => {
        most = Math.max(most, ++active);
        await new Promise<void>((resolve) => gates.push(resolve));
        active--;
      });
    const running = [task(), task(), task(), task(), task()];
    await expect(task()).rejects.toMatchObject({ status: 429 });
    for (let released = 0; released < running.length; released++) {
      await vi.waitFor(() => expect(gates.length).toBeGreaterThan(0));
      expect(active).toBeLessThanOrEqual(2);
      gates.shift()?.();
    }
    await Promise.all(running);
    expect(most).toBe(2);
  });

  it('lets a waiting task whose signal aborts leave the line without running', async () => {
    const run = createLimiter(1, 1);
    let release = () => {};
    const first = run(() => new Promise<void>((resolve) => (release = resolve)));
    const leaving = new AbortController();
    let ran = false;
    const second = run(async () => void (ran = true), leaving.signal);
    expect(run.waiting()).toBe(1);
    leaving.abort(new Error('gone'));
    await expect(second).rejects.toThrow('gone');
    expect(run.waiting()).toBe(0);
    const third = run(async () => 'third');
    release();
    await first;
    expect(await third).toBe('third');
    expect(ran).toBe(false);
  });
});
