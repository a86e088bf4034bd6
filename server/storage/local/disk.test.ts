import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inItsFolder } from './disk';

describe('inItsFolder', () => {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
  });

  it('makes the folder again when a delete beside the write pruned it, and the write lands', async () => {
    const root = await mkdtemp(join(tmpdir(), 'clipstash-disk-'));
    roots.push(root);
    const target = join(root, 'limits', 'a.txt.meta');
    let pruned = 0;
    await inItsFolder(target, async () => {
      // A refused neighbour's delete prunes the folder between its making and this write, twice.
      if (pruned < 2) {
        pruned += 1;
        await rm(dirname(target), { recursive: true });
      }
      await writeFile(target, 'kept');
    });
    expect(pruned).toBe(2);
    expect(await readFile(target, 'utf8')).toBe('kept');
  });

  it('gives up after the third try, and on any other failure at once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'clipstash-disk-'));
    roots.push(root);
    const target = join(root, 'limits', 'a.txt.meta');
    let tries = 0;
    const pruneEachTime = () => {
      tries += 1;
      return rm(dirname(target), { recursive: true }).then(() => writeFile(target, 'lost'));
    };
    await expect(inItsFolder(target, pruneEachTime)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(tries).toBe(3);
    tries = 0;
    const denied = () => {
      tries += 1;
      return Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' }));
    };
    await expect(inItsFolder(target, denied)).rejects.toMatchObject({ code: 'EACCES' });
    expect(tries).toBe(1);
  });
});
