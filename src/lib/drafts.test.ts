import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { draftStore } from './drafts';

describe('draftStore', () => {
  it('reads a draft saved by the Dexie-based store of earlier versions, then saves, replaces and removes', async () => {
    const earlier = new Dexie('clipstash-drafts');
    earlier.version(1).stores({ drafts: 'id' });
    await earlier.table('drafts').put({ id: 'home', content: 'from before', savedAt: 1 });
    earlier.close();

    expect(await draftStore.load('home')).toEqual({ content: 'from before', savedAt: 1 });
    const savedAt = await draftStore.save('home', 'new text');
    expect(await draftStore.load('home')).toEqual({ content: 'new text', savedAt });
    await draftStore.remove('home');
    expect(await draftStore.load('home')).toBeUndefined();
    expect(await draftStore.load('other')).toBeUndefined();
  });
});
