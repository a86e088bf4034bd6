import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { UPDATE_ACTIVATION_TIMEOUT_MS, updatePromptMachine, type UpdatePromptEvent } from './update-prompt.machine';

function start() {
  const effects: string[] = [];
  let worker: ((event: UpdatePromptEvent) => void) | undefined;
  const machine = updatePromptMachine.provide({
    actions: {
      skipWaiting: () => effects.push('skipWaiting'),
      reload: () => effects.push('reload'),
    },
    actors: {
      serviceWorker: fromCallback<UpdatePromptEvent>(({ sendBack }) => {
        worker = sendBack;
        return () => (worker = undefined);
      }),
    },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    effects,
    worker: (type: 'update.ready' | 'update.activated') => worker?.({ type }),
    visible: () => actor.getSnapshot().hasTag('visible'),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('update prompt machine', () => {
  it('is hidden until a new service worker waits', () => {
    const { worker, visible } = start();
    expect(visible()).toBe(false);
    worker('update.ready');
    expect(visible()).toBe(true);
  });

  it('update now: skip waiting, then reload once the new worker controls the page', () => {
    const { actor, worker, effects } = start();
    worker('update.ready');
    actor.send({ type: 'update.accept' });
    expect(effects).toEqual(['skipWaiting']);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'update.accept' });
    expect(effects).toEqual(['skipWaiting']);
    worker('update.activated');
    expect(effects).toEqual(['skipWaiting', 'reload']);
  });

  it('reloads anyway when the new worker does not take over in time', () => {
    const { actor, worker, effects } = start();
    worker('update.ready');
    actor.send({ type: 'update.accept' });
    vi.advanceTimersByTime(UPDATE_ACTIVATION_TIMEOUT_MS - 1);
    expect(effects).toEqual(['skipWaiting']);
    vi.advanceTimersByTime(1);
    expect(effects).toEqual(['skipWaiting', 'reload']);
    worker('update.activated');
    expect(effects).toEqual(['skipWaiting', 'reload']);
  });

  it('later hides it until a newer version waits', () => {
    const { actor, worker, visible, effects } = start();
    worker('update.ready');
    actor.send({ type: 'update.later' });
    expect(visible()).toBe(false);
    worker('update.activated'); // another tab updated: nothing to do here
    expect(effects).toEqual([]);
    worker('update.ready');
    expect(visible()).toBe(true);
  });

  it('after another tab updated, "update now" only reloads', () => {
    const { actor, worker, effects } = start();
    worker('update.ready');
    worker('update.activated');
    expect(actor.getSnapshot().hasTag('visible')).toBe(true);
    actor.send({ type: 'update.accept' });
    expect(effects).toEqual(['reload']);
  });

  it('a newer version after that asks the worker again', () => {
    const { actor, worker, effects } = start();
    worker('update.ready');
    actor.send({ type: 'update.later' });
    worker('update.activated');
    worker('update.ready');
    actor.send({ type: 'update.accept' });
    expect(effects).toEqual(['skipWaiting']);
  });

  it('ignores a change of controller nobody asked for', () => {
    const { worker, effects, visible } = start();
    worker('update.activated'); // the first install claiming the page
    expect(effects).toEqual([]);
    expect(visible()).toBe(false);
  });
});
