import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { receiveForm } from './receive-form';

const stagingDir = mkdtempSync(join(tmpdir(), 'clipstash-form-'));
afterAll(() => rm(stagingDir, { recursive: true, force: true }));

/** A form whose file comes before its placement field, so it is staged, and whose body ends mid-file. */
function brokenForm(): Request {
  const body = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\nsome bytes, then nothing';
  return new Request('http://test/upload', { method: 'POST', body, headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
}

describe('receiveForm', () => {
  it('leaves no staging file behind once it has refused a form that broke off', async () => {
    const discarded: string[] = [];
    const options = {
      placementFields: ['path'],
      stagingDir,
      stagingLimit: 1024,
      tooLarge: () => new Error('too large'),
      store: async () => 'stored',
      discard: async (what: string) => void discarded.push(what),
    };
    // Many at once: a file whose open is still pending when the form fails is where a stray one came from.
    const outcomes = await Promise.allSettled(Array.from({ length: 200 }, () => receiveForm(brokenForm(), options)));
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(readdirSync(stagingDir)).toEqual([]);
    expect(discarded).toEqual([]);
  });
});
