import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { DRAFT_AUTOSAVE_MS, DRAFT_MAX_AGE_MS, draftMachine, isRestorable, type Draft } from './draft.machine';

function start(stored: Draft | undefined, resume = false) {
  const saved: string[] = [];
  const filled: string[] = [];
  let deleted = 0;
  let store = stored;
  const machine = draftMachine.provide({
    actors: {
      loadDraft: fromPromise(async () => store),
      saveDraft: fromPromise(async ({ input }) => {
        saved.push(input.content);
        store = { content: input.content, savedAt: Date.now() };
        return Date.now();
      }),
      deleteDraft: fromPromise(async () => {
        deleted++;
        store = undefined;
      }),
    },
    actions: { fillEditor: (_, { content }) => filled.push(content) },
  });
  const actor = createActor(machine, { input: { resume } }).start();
  return { actor, saved, filled, deleted: () => deleted };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-06-01T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('isRestorable', () => {
  const now = Date.now();
  it('needs text and an age under 24 hours', () => {
    expect(isRestorable({ content: 'hi', savedAt: now - 1000 }, now)).toBe(true);
    expect(isRestorable({ content: '   ', savedAt: now }, now)).toBe(false);
    expect(isRestorable({ content: 'hi', savedAt: now - DRAFT_MAX_AGE_MS }, now)).toBe(false);
    expect(isRestorable(undefined, now)).toBe(false);
  });
});

describe('draft machine', () => {
  it('offers a recent draft, and restoring fills the editor', async () => {
    const { actor, filled } = start({ content: '# kept', savedAt: Date.now() - 60_000 });
    await flush();
    expect(actor.getSnapshot().matches('offering')).toBe(true);
    expect(actor.getSnapshot().context.offer?.content).toBe('# kept');
    actor.send({ type: 'draft.restore' });
    expect(filled).toEqual(['# kept']);
    expect(actor.getSnapshot().context.content).toBe('# kept');
    expect(actor.getSnapshot().context.offer).toBeUndefined();
  });

  it('saves text typed while the stored draft was still being looked up', async () => {
    const { actor, saved } = start(undefined);
    actor.send({ type: 'draft.changed', content: 'typed early' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'dirty' })).toBe(true);
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS);
    expect(saved).toEqual(['typed early']);
  });

  it('saves text typed while a draft was offered, once the offer is turned down', async () => {
    const { actor, saved } = start({ content: 'older', savedAt: Date.now() - 60_000 });
    await flush();
    actor.send({ type: 'draft.changed', content: 'new text' });
    actor.send({ type: 'draft.discard' });
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS);
    expect(saved).toEqual(['new text']);
  });

  it('does not offer an old or empty draft', async () => {
    const old = start({ content: 'old', savedAt: Date.now() - DRAFT_MAX_AGE_MS - 1 });
    const empty = start({ content: '  ', savedAt: Date.now() });
    await flush();
    expect(old.actor.getSnapshot().matches('editing')).toBe(true);
    expect(empty.actor.getSnapshot().matches('editing')).toBe(true);
  });

  it('discarding keeps what is being typed', async () => {
    const { actor } = start({ content: 'old', savedAt: Date.now() });
    await flush();
    actor.send({ type: 'draft.changed', content: 'new text' });
    actor.send({ type: 'draft.discard' });
    expect(actor.getSnapshot().context.content).toBe('new text');
  });

  it('saves 30 s after a change, once, with the latest text', async () => {
    const { actor, saved } = start(undefined);
    await flush();
    actor.send({ type: 'draft.changed', content: 'a' });
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS / 2);
    actor.send({ type: 'draft.changed', content: 'ab' });
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS / 2);
    expect(saved).toEqual(['ab']);
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS * 3);
    expect(saved).toEqual(['ab']);
    expect(actor.getSnapshot().matches({ editing: 'clean' })).toBe(true);
    expect(actor.getSnapshot().context.lastSavedAt).toBe(Date.now() - DRAFT_AUTOSAVE_MS * 3);
  });

  it('clearing deletes the stored draft', async () => {
    const { actor, deleted } = start(undefined);
    await flush();
    actor.send({ type: 'draft.changed', content: 'secret' });
    actor.send({ type: 'draft.clear' });
    await flush();
    expect(deleted()).toBe(1);
    expect(actor.getSnapshot().context.content).toBe('');
    await vi.advanceTimersByTimeAsync(DRAFT_AUTOSAVE_MS);
    expect(actor.getSnapshot().matches({ editing: 'clean' })).toBe(true);
  });
});

describe('leaving for a login and coming back', () => {
  it('saves at once on draft.flush, without waiting for the 30 s tick', async () => {
    const { actor, saved } = start(undefined);
    await flush();
    actor.send({ type: 'draft.changed', content: 'typed just now' });
    actor.send({ type: 'draft.flush' });
    await flush();
    expect(saved).toEqual(['typed just now']);
    expect(actor.getSnapshot().matches({ editing: 'clean' })).toBe(true);
  });

  it('a flush while a draft is offered saves the typed text over it', async () => {
    const { actor, saved } = start({ content: 'older', savedAt: Date.now() - 1000 });
    await flush();
    expect(actor.getSnapshot().matches('offering')).toBe(true);
    actor.send({ type: 'draft.flush' });
    await flush();
    expect(saved).toEqual([]);
    actor.send({ type: 'draft.changed', content: 'newer' });
    actor.send({ type: 'draft.flush' });
    await flush();
    expect(saved).toEqual(['newer']);
    expect(actor.getSnapshot().context.offer).toBeUndefined();
  });

  it('resuming puts the stored draft back at once instead of offering it', async () => {
    const { actor, filled } = start({ content: 'my text', savedAt: Date.now() - 1000 }, true);
    await flush();
    expect(filled).toEqual(['my text']);
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.offer).toBeUndefined();
  });
});
