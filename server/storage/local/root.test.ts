import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { contractNow, contractSecrets } from '../../../tests/fixtures/driver-subject';
import { UnsafeKeyError } from '../driver';
import { createLocalDriver } from '../local';

const folders: string[] = [];
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'clipstash-local-root-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const driverAt = (root: string) => createLocalDriver({ root, configId: 'c', secrets: contractSecrets, now: contractNow });

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}

describe('LOCAL confinement (one real-path look, the walk for the rest)', () => {
  it('reads through a root reached by a link: a link above the root is the admin’s choice', async () => {
    const outside = tempFolder();
    mkdirSync(join(outside, 'real-root', 'a'), { recursive: true });
    writeFileSync(join(outside, 'real-root', 'a', 'x.txt'), 'inside');
    symlinkSync(join(outside, 'real-root'), join(outside, 'linked-root'));
    const driver = driverAt(join(outside, 'linked-root'));
    expect(await text(await driver.get('a/x.txt'))).toBe('inside');
    expect(await driver.put('a/new.txt', Readable.from([Buffer.from('new')]), { contentType: 'text/plain' })).toMatchObject({ size: 3 });
  });

  it('refuses a folder that became a link after a read of the same path found none', async () => {
    const root = tempFolder();
    const secret = tempFolder();
    writeFileSync(join(secret, 'x.txt'), 'secret');
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'x.txt'), 'inside');
    const driver = driverAt(root);
    expect(await text(await driver.get('a/x.txt'))).toBe('inside');
    renameSync(join(root, 'a'), join(root, 'was-a'));
    symlinkSync(secret, join(root, 'a'));
    await expect(driver.get('a/x.txt')).rejects.toBeInstanceOf(UnsafeKeyError);
    await expect(driver.head('a/x.txt')).rejects.toBeInstanceOf(UnsafeKeyError);
  });

  it('refuses a link to a file inside the root, and writes below a folder not made yet', async () => {
    const root = tempFolder();
    writeFileSync(join(root, 'real.txt'), 'real');
    symlinkSync(join(root, 'real.txt'), join(root, 'alias.txt'));
    const driver = driverAt(root);
    await expect(driver.get('alias.txt')).rejects.toBeInstanceOf(UnsafeKeyError);
    await driver.put('new/deep/file.txt', Readable.from([Buffer.from('made')]), { contentType: 'text/plain' });
    expect(await text(await driver.get('new/deep/file.txt'))).toBe('made');
  });
});
