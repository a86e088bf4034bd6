import { describe, expect, it, vi } from 'vitest';
import { createActorsLoader } from './actors';
import type { AppActors } from './create-actors';

const fakeActors = { theme: {} } as unknown as AppActors;

describe('createActorsLoader', () => {
  it('creates the actors once, however often they are asked for, and tells its subscribers when they are there', async () => {
    const create = vi.fn(async () => fakeActors);
    const loader = createActorsLoader(create);
    const heard = vi.fn();
    loader.subscribe(heard);
    expect(loader.current()).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([loader.load(), loader.load()]);
    expect(first).toBe(fakeActors);
    expect(second).toBe(fakeActors);
    expect(loader.current()).toBe(fakeActors);
    expect(create).toHaveBeenCalledTimes(1);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('tries again after its code failed to load', async () => {
    const create = vi.fn<() => Promise<AppActors>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(fakeActors);
    const loader = createActorsLoader(create);
    await expect(loader.load()).rejects.toThrow('offline');
    expect(loader.current()).toBeUndefined();
    await expect(loader.load()).resolves.toBe(fakeActors);
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('stops telling a subscriber that unsubscribed', async () => {
    const loader = createActorsLoader(async () => fakeActors);
    const heard = vi.fn();
    loader.subscribe(heard)();
    await loader.load();
    expect(heard).not.toHaveBeenCalled();
  });
});
