import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import {
  INSTALL_PROMPT_CHECK_INTERVAL_MS,
  INSTALL_PROMPT_SNOOZE_MS,
  installPromptMachine,
  isSnoozed,
  type InstallOutcome,
  type InstallPromptEvent,
  type InstallPromptInput,
} from './install-prompt.machine';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 0, 1);

function start(input: InstallPromptInput = {}, outcome: () => Promise<InstallOutcome> = async () => 'accepted', engaged = true) {
  const persisted: number[] = [];
  let prompts = 0;
  let browser: ((event: InstallPromptEvent) => void) | undefined;
  const machine = installPromptMachine.provide({
    actions: { persistDismissal: (_, { at }) => persisted.push(at) },
    actors: {
      browserInstall: fromCallback<InstallPromptEvent>(({ sendBack }) => {
        browser = sendBack;
        return () => (browser = undefined);
      }),
      promptInstall: fromPromise(() => {
        prompts++;
        return outcome();
      }),
    },
  });
  const actor = createActor(machine, { input }).start();
  if (engaged) actor.send({ type: 'user.engaged' });
  return {
    actor,
    persisted,
    prompts: () => prompts,
    browser: (type: 'install.offered' | 'install.completed') => browser?.({ type }),
    visible: () => actor.getSnapshot().hasTag('visible'),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});
afterEach(() => vi.useRealTimers());

describe('install prompt machine', () => {
  it('waits for the person to do something on the site, even with an offer', () => {
    const { actor, browser, visible } = start({}, undefined, false);
    browser('install.offered');
    vi.advanceTimersByTime(INSTALL_PROMPT_CHECK_INTERVAL_MS * 3);
    expect(visible()).toBe(false);
    actor.send({ type: 'user.engaged' });
    expect(visible()).toBe(true);
  });

  it('after a "later", engaging again does not bring it back', () => {
    const { actor, browser, visible } = start();
    browser('install.offered');
    actor.send({ type: 'install.later' });
    actor.send({ type: 'user.engaged' });
    expect(visible()).toBe(false);
  });

  it('stays hidden until the browser offers installation, then shows', () => {
    const { browser, visible } = start();
    vi.advanceTimersByTime(INSTALL_PROMPT_CHECK_INTERVAL_MS * 3);
    expect(visible()).toBe(false);
    browser('install.offered');
    expect(visible()).toBe(true);
  });

  it('install asks the browser once and ends hidden when accepted', async () => {
    const { actor, browser, visible, prompts } = start();
    browser('install.offered');
    actor.send({ type: 'install.accept' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'install.accept' });
    await vi.advanceTimersByTimeAsync(0); // the browser's dialog answers
    expect(actor.getSnapshot().value).toBe('installed');
    expect(prompts()).toBe(1);
    browser('install.offered');
    vi.advanceTimersByTime(INSTALL_PROMPT_CHECK_INTERVAL_MS * 2);
    expect(visible()).toBe(false);
  });

  it('later hides it for 7 days, stored, and the 5 s check brings it back after', () => {
    const { actor, browser, visible, persisted } = start();
    browser('install.offered');
    actor.send({ type: 'install.later' });
    expect(visible()).toBe(false);
    expect(persisted).toEqual([START]);

    vi.advanceTimersByTime(INSTALL_PROMPT_SNOOZE_MS - INSTALL_PROMPT_CHECK_INTERVAL_MS);
    expect(visible()).toBe(false);
    browser('install.offered'); // the browser offers again: still snoozed
    expect(visible()).toBe(false);
    vi.advanceTimersByTime(INSTALL_PROMPT_CHECK_INTERVAL_MS);
    expect(visible()).toBe(true);
  });

  it('is checked every 5 s, not continuously', () => {
    const dismissedAt = START - INSTALL_PROMPT_SNOOZE_MS + 1_000; // runs out 1 s from now
    const { browser, visible } = start({ dismissedAt });
    browser('install.offered');
    expect(visible()).toBe(false);
    vi.advanceTimersByTime(4_999);
    expect(visible()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(visible()).toBe(true);
  });

  it('a dismissal stored less than 7 days ago keeps it hidden; an older one does not', () => {
    const recent = start({ dismissedAt: START - 6 * DAY });
    recent.browser('install.offered');
    expect(recent.visible()).toBe(false);
    const old = start({ dismissedAt: START - 8 * DAY });
    old.browser('install.offered');
    expect(old.visible()).toBe(true);
  });

  it('dismissing the browser dialog counts as later', async () => {
    const { actor, browser, visible, persisted } = start({}, async () => 'dismissed');
    browser('install.offered');
    actor.send({ type: 'install.accept' });
    await vi.advanceTimersByTimeAsync(0); // the browser's dialog answers
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(persisted).toEqual([START]);
    expect(actor.getSnapshot().context.offered).toBe(false);
    expect(visible()).toBe(false);
  });

  it('a failing browser prompt hides the banner until the next offer, without a snooze', async () => {
    const { actor, browser, visible, persisted } = start({}, async () => {
      throw new Error('prompt() already used');
    });
    browser('install.offered');
    actor.send({ type: 'install.accept' });
    await vi.advanceTimersByTimeAsync(0); // the browser's dialog answers
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(persisted).toEqual([]);
    vi.advanceTimersByTime(INSTALL_PROMPT_CHECK_INTERVAL_MS);
    expect(visible()).toBe(false);
    browser('install.offered');
    expect(visible()).toBe(true);
  });

  it('never shows when already installed, or once the browser reports an install', () => {
    const installed = start({ installed: true });
    installed.browser('install.offered');
    expect(installed.visible()).toBe(false);

    const { browser, visible, actor } = start();
    browser('install.offered');
    browser('install.completed');
    expect(visible()).toBe(false);
    expect(actor.getSnapshot().value).toBe('installed');
  });

  it('stops listening to the browser when stopped', () => {
    const { actor, browser, visible } = start();
    actor.stop();
    browser('install.offered');
    expect(visible()).toBe(false);
  });
});

describe('isSnoozed', () => {
  it('holds for exactly 7 days after the dismissal', () => {
    expect(isSnoozed(undefined, START)).toBe(false);
    expect(isSnoozed(START, START)).toBe(true);
    expect(isSnoozed(START, START + INSTALL_PROMPT_SNOOZE_MS - 1)).toBe(true);
    expect(isSnoozed(START, START + INSTALL_PROMPT_SNOOZE_MS)).toBe(false);
    expect(isSnoozed(START + DAY, START)).toBe(false); // a dismissal "in the future": the clock was wrong
  });
});
