import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type AnyActorRef } from 'xstate';
import { themeMachine, type EffectiveTheme, type ThemeEvent } from './theme.machine';
import type { ThemeMode } from './theme-modes';

function start(mode: ThemeMode, systemDark = false) {
  const applied: EffectiveTheme[] = [];
  const persisted: ThemeMode[] = [];
  let system: ((event: ThemeEvent) => void) | undefined;
  const machine = themeMachine.provide({
    actions: {
      applyTheme: (_, params) => applied.push(params.theme),
      persistMode: (_, params) => persisted.push(params.mode),
    },
    actors: {
      systemPreference: fromCallback<ThemeEvent>(({ sendBack }) => {
        system = sendBack;
        return () => (system = undefined);
      }),
    },
  });
  const actor = createActor(machine, { input: { mode, systemDark } }).start();
  return { actor, applied, persisted, system: (dark: boolean) => system?.({ type: 'theme.systemChanged', dark }) };
}

const modeOf = (actor: AnyActorRef) => actor.getSnapshot().value as ThemeMode;

describe('theme machine', () => {
  it('starts in the stored mode and applies its theme', () => {
    expect(modeOf(start('dark').actor)).toBe('dark');
    expect(start('dark').applied).toEqual(['dark']);
    expect(start('light', true).applied).toEqual(['light']);
    expect(start('auto', true).applied).toEqual(['dark']);
  });

  it('cycles auto → light → dark → auto and persists each choice', () => {
    const { actor, applied, persisted } = start('auto', false);
    const seen: ThemeMode[] = [];
    for (let i = 0; i < 3; i++) {
      actor.send({ type: 'theme.toggle' });
      seen.push(modeOf(actor));
    }
    expect(seen).toEqual(['light', 'dark', 'auto']);
    expect(persisted).toEqual(['light', 'dark', 'auto']);
    expect(applied).toEqual(['light', 'light', 'dark', 'light']);
  });

  it('follows the system preference live in auto only', () => {
    const { actor, applied, system } = start('auto', false);
    system(true);
    expect(applied.at(-1)).toBe('dark');
    actor.send({ type: 'theme.toggle' }); // light
    const before = applied.length;
    system(false);
    system(true);
    expect(applied.length).toBe(before);
    actor.send({ type: 'theme.toggle' }); // dark
    actor.send({ type: 'theme.toggle' }); // auto, system is dark now
    expect(applied.at(-1)).toBe('dark');
    expect(actor.getSnapshot().context.systemDark).toBe(true);
  });

  it('stops watching the system when stopped', () => {
    const { actor, system, applied } = start('auto');
    actor.stop();
    system(true);
    expect(applied).toEqual(['light']);
  });
});
