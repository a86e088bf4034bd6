import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { connectivityMachine, type ConnectivityEvent } from './connectivity.machine';

function start(online: boolean) {
  let reloads = 0;
  let browser: ((event: ConnectivityEvent) => void) | undefined;
  const machine = connectivityMachine.provide({
    actions: { reloadPreferences: () => reloads++ },
    actors: {
      browserConnectivity: fromCallback<ConnectivityEvent>(({ sendBack }) => {
        browser = sendBack;
        return () => (browser = undefined);
      }),
    },
  });
  const actor = createActor(machine, { input: { online } }).start();
  return {
    actor,
    reloads: () => reloads,
    browser: (type: ConnectivityEvent['type']) => browser?.({ type }),
    offline: () => actor.getSnapshot().hasTag('offline'),
  };
}

describe('connectivity machine', () => {
  it('starts as the browser says', () => {
    expect(start(true).offline()).toBe(false);
    expect(start(false).offline()).toBe(true);
  });

  it('follows the browser events and reloads the preferences on each return online', () => {
    const { browser, offline, reloads, actor } = start(true);
    browser('connectivity.offline');
    expect(offline()).toBe(true);
    expect(actor.getSnapshot().context.online).toBe(false);
    browser('connectivity.online');
    expect(offline()).toBe(false);
    expect(reloads()).toBe(1);
    browser('connectivity.online'); // already online: not a return
    expect(reloads()).toBe(1);
    browser('connectivity.offline');
    browser('connectivity.online');
    expect(reloads()).toBe(2);
  });

  it('stops listening when stopped', () => {
    const { actor, browser, offline } = start(true);
    actor.stop();
    browser('connectivity.offline');
    expect(offline()).toBe(false);
  });
});
