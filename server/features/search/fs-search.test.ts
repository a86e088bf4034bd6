import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mountIndexListSchema, mountIndexSchema, type MountIndex } from '../../../contract/search';
import { storageConfigSchema } from '../../../contract/storage';
import { davClient } from '../../../tests/fixtures/dav';
import type { Bytes } from '../../../tests/fixtures/files';
import { createMount, fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import { jobsClient } from '../../../tests/fixtures/jobs';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { searchClient } from '../../../tests/fixtures/search';
import { ADMIN_PASSWORD, ADMIN_USERNAME, expectError, expectOk, MINUTE, useTestApp } from '../../../tests/fixtures/test-app';
import { indexerOf } from './indexer';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Kind = 'LOCAL' | 'S3';
const text = (value: string) => Buffer.from(value) as Bytes;

/**
 * The mount index and `fs/search` through HTTP on a LOCAL mount and an s3rver bucket: matching, filters and paging,
 * a key's base path, every kind of write seen at once, and what the index does when mounts come and go.
 */
describe.each<Kind>(['LOCAL', 'S3'])('searching a %s mount', (kind) => {
  const t = useTestApp();
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let search: ReturnType<typeof searchClient>;
  let root: string;
  let mountId: string;

  beforeAll(async () => {
    fs = fsClient(t, { token: t.token });
    search = searchClient(t, { token: t.token });
    const mount = await mountOfKind(t, t.token, kind, { mount: { cache_ttl: 0 } });
    s3 = mount.s3;
    root = mount.root;
    mountId = (await fs.listOk(root)).mountId ?? '';
    const seeded: [folder: string, name: string][] = [
      ['docs', 'Annual-Report-2024.pdf'],
      ['docs', '年度报告.docx'],
      ['docs/drafts', '报告草稿.txt'],
      ['docs/drafts', 'notes.md'],
      ['misc', '100%_done.txt'],
      ['misc', '100 done.txt'],
      ['reports', 'q1.csv'],
    ];
    for (const [folder, name] of seeded) {
      await fs.uploadOk(`${root}/${folder}`, name, text(name));
    }
    // The built-in LOCAL mount predates the index (a server's start queues it); a new S3 mount was queued when made.
    if (kind === 'LOCAL') await search.rebuildOk(mountId);
    await search.complete(mountId);
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('finds names by case-insensitive substring, Latin and Chinese, with 2- and 3-character queries', async () => {
    expect((await search.paths('port')).sort()).toEqual([`${root}/docs/Annual-Report-2024.pdf`, `${root}/reports/`].sort());
    expect(await search.paths('REPORT-20')).toEqual([`${root}/docs/Annual-Report-2024.pdf`]);
    expect((await search.paths('报告')).sort()).toEqual([`${root}/docs/drafts/报告草稿.txt`, `${root}/docs/年度报告.docx`].sort());
    expect(await search.paths('年度报')).toEqual([`${root}/docs/年度报告.docx`]);
    expect(await search.paths('草')).toEqual([`${root}/docs/drafts/报告草稿.txt`]);
    expect(await search.paths('no such name')).toEqual([]);
    // LIKE's wildcards and FTS5's syntax are plain characters.
    expect(await search.paths('%')).toEqual([`${root}/misc/100%_done.txt`]);
    expect(await search.paths('0%_d')).toEqual([`${root}/misc/100%_done.txt`]);
    expect(await search.paths('%_')).toEqual([`${root}/misc/100%_done.txt`]);
    expect(await search.paths('SV')).toEqual([`${root}/reports/q1.csv`]);
    expect(await search.paths('"notes')).toEqual([]);
    expect(await search.paths('notes OR q1')).toEqual([]);

    const [hit] = (await search.searchOk('年度报')).items;
    expect(hit).toMatchObject({ name: '年度报告.docx', isDirectory: false, isVirtual: false, size: text('年度报告.docx').length, folder: `${root}/docs/`, mountId });
    expect(hit?.mimetype).toContain('wordprocessingml');
    const answer = await search.searchOk('port', { path: root });
    expect(answer).toMatchObject({ complete: true, incomplete: [], nextCursor: null });
  });

  it('filters by type and folder, orders best or newest first, and pages with a cursor', async () => {
    expect(await search.paths('re', { type: 'folder' })).toEqual([`${root}/reports/`]);
    expect(await search.paths('report', { type: 'file' })).toEqual([`${root}/docs/Annual-Report-2024.pdf`]);
    expect(await search.paths('报告', { path: `${root}/docs/drafts` })).toEqual([`${root}/docs/drafts/报告草稿.txt`]);
    expect(await search.paths('报告', { path: `${root}/misc` })).toEqual([]);
    // Names starting with the words first, then shorter names.
    expect(await search.paths('done')).toEqual([`${root}/misc/100 done.txt`, `${root}/misc/100%_done.txt`]);
    expect(await search.paths('q1')).toEqual([`${root}/reports/q1.csv`]);
    const newest = (await search.searchOk('.', { order: 'newest', type: 'file' })).items.map((item) => item.modified ?? '');
    expect(newest.length).toBe(7);
    expect(newest).toEqual([...newest].sort().reverse());

    const all = await search.paths('.', { type: 'file' });
    const paged: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await search.searchOk('.', { type: 'file', limit: '3', ...(cursor && { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(3);
      paged.push(...page.items.map((item) => item.path));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
    expect(new Set(paged).size).toBe(7);

    // Pages that cross from the names starting with the query to the others (PostgreSQL reads the two apart).
    const best = ['docs/', 'docs/drafts/', 'docs/drafts/notes.md', 'docs/年度报告.docx', 'misc/100 done.txt', 'misc/100%_done.txt', 'docs/Annual-Report-2024.pdf'];
    expect(await search.paths('D')).toEqual(best.map((path) => `${root}/${path}`));
    const crossing: string[] = [];
    cursor = undefined;
    do {
      const page = await search.searchOk('D', { limit: '3', ...(cursor && { cursor }) });
      crossing.push(...page.items.map((item) => item.path));
      cursor = page.nextCursor;
    } while (cursor);
    expect(crossing).toEqual(best.map((path) => `${root}/${path}`));
  });

  it('keeps a key inside its base path, whatever path it asks for', async () => {
    await fs.uploadOk(`${root}/a`, 'secret-in.txt', text('in'));
    await fs.uploadOk(`${root}/ab`, 'secret-out.txt', text('out'));
    const key = await t.createKey(t.token, { mount_permission: true, basic_path: `${root}/a` });
    const asKey = searchClient(t, { apiKey: key.key });
    expect(await asKey.paths('secret')).toEqual([`${root}/a/secret-in.txt`]);
    expect(await asKey.paths('secret', { path: '/' })).toEqual([`${root}/a/secret-in.txt`]);
    // The base folder itself is not below the base path, and its neighbour `ab` starts with the same letters.
    expect(await asKey.paths('a')).not.toContain(`${root}/a/`);
    expect((await asKey.paths('a')).every((path) => path.startsWith(`${root}/a/`))).toBe(true);
    const outside = await expectError(await asKey.search('secret', { path: `${root}/ab` }), 403);
    expect(outside.data.error).toBe('forbidden');
    expect(JSON.stringify(outside)).not.toContain('secret-out');

    const noMounts = await t.createKey(t.token, { text_permission: true });
    await expectError(await searchClient(t, { apiKey: noMounts.key }).search('secret'), 403);
    await expectError(await asKey.rebuild(mountId), 403);
  });

  it('sees every write through Clipstash at once: upload, mkdir, rename, move, delete, a copy job, a batch move, WebDAV PUT', async () => {
    await fs.uploadOk(`${root}/fresh`, 'uploaded-kiwi.txt', text('k'));
    expect(await search.paths('kiwi')).toEqual([`${root}/fresh/uploaded-kiwi.txt`]);

    expect((await fs.mkdir(`${root}/fresh/folder-mango`)).status).toBe(201);
    expect(await search.paths('mango')).toEqual([`${root}/fresh/folder-mango/`]);

    expect((await fs.rename(`${root}/fresh/uploaded-kiwi.txt`, `${root}/fresh/renamed-papaya.txt`)).status).toBe(200);
    expect(await search.paths('kiwi')).toEqual([]);
    expect(await search.paths('papaya')).toEqual([`${root}/fresh/renamed-papaya.txt`]);

    expect((await fs.rename(`${root}/fresh/renamed-papaya.txt`, `${root}/fresh/folder-mango/renamed-papaya.txt`)).status).toBe(200);
    expect(await search.paths('papaya')).toEqual([`${root}/fresh/folder-mango/renamed-papaya.txt`]);

    // A folder renamed: everything below it moves in the index too.
    expect((await fs.rename(`${root}/fresh/folder-mango`, `${root}/fresh/folder-lychee`)).status).toBe(200);
    expect(await search.paths('papaya')).toEqual([`${root}/fresh/folder-lychee/renamed-papaya.txt`]);
    expect(await search.paths('mango')).toEqual([]);

    expect((await fs.remove(`${root}/fresh/folder-lychee`)).status).toBe(200);
    expect(await search.paths('papaya')).toEqual([]);
    expect(await search.paths('lychee')).toEqual([]);

    await fs.uploadOk(`${root}/jobsrc/inner`, 'copied-fig.txt', text('fig'));
    const jobs = jobsClient(t, { token: t.token });
    const job = await jobs.createOk({ type: 'copy', items: [{ sourcePath: `${root}/jobsrc`, targetPath: `${root}/jobdst/` }] });
    expect((await jobs.ended(job.id)).status).toBe('completed');
    expect((await search.paths('copied-fig')).sort()).toEqual([`${root}/jobdst/jobsrc/inner/copied-fig.txt`, `${root}/jobsrc/inner/copied-fig.txt`]);

    // A batch move of a folder into another: the tree below it is found at its new place only.
    expect((await fs.post('batch-move', { items: [{ sourcePath: `${root}/jobdst/jobsrc`, targetPath: `${root}/fresh/` }] })).status).toBe(200);
    expect((await search.paths('copied-fig')).sort()).toEqual([`${root}/fresh/jobsrc/inner/copied-fig.txt`, `${root}/jobsrc/inner/copied-fig.txt`]);

    const dav = davClient(t, ADMIN_USERNAME, ADMIN_PASSWORD);
    expect((await dav.put(`${root}/fresh/dav-guava.txt`, 'guava')).status).toBe(201);
    expect(await search.paths('guava')).toEqual([`${root}/fresh/dav-guava.txt`]);
    expect((await search.searchOk('guava', { path: root })).complete).toBe(true);
    // On S3, the built-in LOCAL mount is searched too, and has no index in this app.
    const incomplete = (await search.searchOk('guava')).incomplete.map((index) => ({ mountPath: index.mountPath, state: index.state }));
    expect(incomplete).toEqual(kind === 'S3' ? [{ mountPath: '/local', state: 'none' }] : []);
  });

  it('hides what a deeper mount covers, and forgets a deleted mount', async () => {
    await fs.uploadOk(`${root}/deeper`, 'shadowed-plum.txt', text('under the mount point'));
    const disk = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: `deeper ${kind}` } }), storageConfigSchema, 201);
    const deeper = await createMount(t, t.token, { name: 'Deeper', storage_config_id: disk.id, mount_path: `${root}/deeper` });
    await fs.uploadOk(`${root}/deeper`, 'own-plum.txt', text('in the deeper mount'));
    await search.complete(deeper.id);
    expect(await search.paths('plum')).toEqual([`${root}/deeper/own-plum.txt`]);
    expect((await search.searchOk('plum')).items[0]?.mountId).toBe(deeper.id);
    expect(await search.paths('plum', { path: `${root}/deeper` })).toEqual([`${root}/deeper/own-plum.txt`]);

    expect((await t.request(`/api/admin/mounts/${deeper.id}`, { token: t.token, method: 'DELETE' })).status).toBe(200);
    expect(await t.db.selectFrom('fs_index_entries').select('id').where('mount_id', '=', deeper.id).execute()).toEqual([]);
    expect((await search.indexes()).map((index) => index.mountId)).not.toContain(deeper.id);
    expect(await search.paths('plum')).toEqual([`${root}/deeper/shadowed-plum.txt`]);
  });

  it('answers bad input in the envelope', async () => {
    const invalid = async (res: Response, field: string) => expect((await expectError(res, 400)).data).toMatchObject({ field });
    await invalid(await t.request('/api/admin/fs/search', { token: t.token }), 'q');
    await invalid(await search.search('   '), 'q');
    await invalid(await search.search('x'.repeat(101)), 'q');
    await invalid(await search.search('a', { limit: '0' }), 'limit');
    await invalid(await search.search('a', { limit: '201' }), 'limit');
    await invalid(await search.search('a', { limit: 'ten' }), 'limit');
    await invalid(await search.search('a', { type: 'link' }), 'type');
    await invalid(await search.search('a', { order: 'oldest' }), 'order');
    await invalid(await search.search('a', { cursor: 'not-a-cursor' }), 'cursor');
    await invalid(await search.search('a', { path: '/../..' }), 'path');
    await invalid(await search.rebuild(''), 'mountId');
    await invalid(await t.request('/api/admin/fs/index/rebuild', { token: t.token, json: {} }), 'mountId');
    await invalid(await search.update(mountId, { rescanMinutes: -1 }), 'rescanMinutes');
    await invalid(await search.update(mountId, { rescanMinutes: 1.5 }), 'rescanMinutes');
    await invalid(await search.update(mountId, { rescanMinutes: 7 * 24 * 60 + 1 }), 'rescanMinutes');
    await invalid(await search.update(mountId, { rescanMinutes: '5' }), 'rescanMinutes');
    expect((await expectError(await search.rebuild('no-such-mount'), 404)).data.error).toBe('not_found');
    expect((await expectError(await search.update('no-such-mount', { rescanMinutes: 5 }), 404)).data.error).toBe('not_found');
    await expectError(await t.request('/api/admin/fs/search?q=a'), 401);
  });

  it.runIf(kind === 'S3')('says when a storage cannot be indexed, in the caller\'s language, and searches on', async () => {
    const missing = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: s3!.configRequest({ name: 'gone', bucket_name: 'no-such-bucket' }) }), storageConfigSchema, 201);
    const mount = await createMount(t, t.token, { name: 'Missing', storage_type: 'S3', storage_config_id: missing.id, mount_path: '/missing' });
    let failed: MountIndex | undefined;
    await vi.waitFor(async () => {
      const answer = await t.request('/api/admin/fs/index', { token: t.token, headers: { 'accept-language': 'zh-CN' } });
      failed = (await expectOk(answer, mountIndexListSchema)).find((index) => index.mountId === mount.id);
      expect(failed?.state).toBe('failed');
    });
    expect(failed).toMatchObject({ entries: 0, foldersPending: 0, error: '无法列出存储内容，索引未能建立；将在下次重新扫描时再试' });
    expect(failed?.nextRescanAt).not.toBeNull();
    const answer = await search.searchOk('report', { type: 'file' });
    expect(answer.items.map((item) => item.path)).toEqual([`${root}/docs/Annual-Report-2024.pdf`]);
    expect(answer.incomplete.find((index) => index.mountId === mount.id)).toMatchObject({ state: 'failed', error: expect.stringContaining('could not be listed') });
    expect(JSON.stringify(answer)).not.toMatch(/no-such-bucket|NoSuchBucket|127\.0\.0\.1/);
  });

  it.runIf(kind === 'LOCAL')('finds a file written straight to the disk at the next rescan', async () => {
    const local = (await t.db.selectFrom('mounts').select('storage_config_id').where('id', '=', mountId).executeTakeFirstOrThrow()).storage_config_id;
    mkdirSync(join(t.dataDir, 'storage', local, 'outside'), { recursive: true });
    writeFileSync(join(t.dataDir, 'storage', local, 'outside', 'behind-the-back-quince.txt'), 'q');
    expect(await search.paths('quince')).toEqual([]);

    const updated = await expectOk(await search.update(mountId, { rescanMinutes: 5 }), mountIndexSchema);
    expect(updated).toMatchObject({ rescanMinutes: 5, state: 'complete' });
    expect(Date.parse(updated.nextRescanAt ?? '')).toBe(Date.parse(updated.builtAt ?? '') + 5 * MINUTE);
    t.clock.set(new Date(Date.parse(updated.nextRescanAt ?? '') + 1000));
    await indexerOf(t.deps).start(20);
    await vi.waitFor(async () => expect(await search.paths('quince')).toEqual([`${root}/outside/behind-the-back-quince.txt`]), { timeout: 20_000, interval: 50 });
    const after = await search.complete(mountId);
    expect(Date.parse(after.builtAt ?? '')).toBe(t.clock.now().getTime());

    expect((await search.update(mountId, { rescanMinutes: 0 })).status).toBe(200);
    expect((await search.indexes()).find((index) => index.mountId === mountId)).toMatchObject({ rescanMinutes: 0, nextRescanAt: null });
  });
});
