import { describe, expect, it, vi } from 'vitest';
import type { PublicPaste } from '../../../contract/public-paste';
import type { SharePeek } from '../../../contract/share-peek';
import { firstLook, type FirstLookSteps } from './paste-opening';

const peek: SharePeek = { requiresPassword: false, viewsLeft: null, size: 10, contentType: 'text/markdown; charset=utf-8', encryption: null, expiresAt: null };
const shown = { paste: { slug: 'a' } as PublicPaste, text: 'hi' };

function steps(overrides: Partial<FirstLookSteps> = {}) {
  return {
    peek: vi.fn(async () => peek),
    open: vi.fn(async () => shown),
    linkKeyProblem: vi.fn(async () => undefined),
    ...overrides,
  };
}

describe('first look at a paste', () => {
  it('opens a paste without a view limit at once', async () => {
    const given = steps();
    expect(await firstLook(given)).toEqual({ kind: 'paste', shown });
    expect(given.linkKeyProblem).not.toHaveBeenCalled();
  });

  it('stops at the gate, spending nothing, when the paste has a view limit (with or without a password)', async () => {
    for (const limited of [{ ...peek, viewsLeft: 1 }, { ...peek, viewsLeft: 3, requiresPassword: true }]) {
      const given = steps({ peek: vi.fn(async () => limited) });
      expect(await firstLook(given)).toEqual({ kind: 'gate', peek: limited });
      expect(given.open).not.toHaveBeenCalled();
    }
  });

  it('fetches nothing for an encrypted paste whose link has no usable key', async () => {
    for (const viewsLeft of [null, 1]) {
      const given = steps({ peek: vi.fn(async () => ({ ...peek, viewsLeft, encryption: 'aes-256-gcm' as const })), linkKeyProblem: vi.fn(async () => 'no_key' as const) });
      expect(await firstLook(given)).toEqual({ kind: 'link', problem: 'no_key' });
      expect(given.open).not.toHaveBeenCalled();
    }
  });

  it('gates an encrypted, limited paste whose link has a key', async () => {
    const limited = { ...peek, viewsLeft: 1, encryption: 'aes-256-gcm' as const };
    expect(await firstLook(steps({ peek: vi.fn(async () => limited) }))).toEqual({ kind: 'gate', peek: limited });
  });

  it('opens at once when offline (the offline cache answers), and passes any other failure on', async () => {
    const offline = steps({ peek: vi.fn(async () => Promise.reject(Object.assign(new Error('offline'), { reason: 'network', status: 0 }))) });
    expect(await firstLook(offline)).toEqual({ kind: 'paste', shown });
    const gone = Object.assign(new Error('gone'), { reason: 'http', status: 410 });
    const used = steps({ peek: vi.fn(async () => Promise.reject(gone)) });
    await expect(firstLook(used)).rejects.toBe(gone);
    expect(used.open).not.toHaveBeenCalled();
  });
});
