import { describe, expect, it } from 'vitest';
import { createClientPool } from './client-pool';

/** Clients as plain records: the pool's own rules, apart from any protocol (ftp.test.ts runs it on a real server). */
function pooled(max: number, connectFails = () => false) {
  let made = 0;
  let busy = 0;
  let mostBusy = 0;
  const closed: number[] = [];
  const pool = createClientPool<{ id: number; open: boolean }>({
    max,
    connect: async () => {
      if (connectFails()) throw new Error('refused');
      return { id: ++made, open: true };
    },
    isOpen: (client) => client.open,
    close: (client) => {
      client.open = false;
      closed.push(client.id);
    },
  });
  const use = async <T>(work: (client: { id: number; open: boolean }) => Promise<T>) => {
    const lease = await pool.acquire();
    busy++;
    mostBusy = Math.max(mostBusy, busy);
    try {
      return await work(lease.client);
    } finally {
      busy--;
      lease.release();
    }
  };
  return { pool, use, closed, made: () => made, mostBusy: () => mostBusy };
}

describe('client pool', () => {
  it('lends at most `max` clients at once, reuses them, and serves waiters in order', async () => {
    const { use, made, mostBusy } = pooled(2);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        use(async () => {
          order.push(index);
          await new Promise((resolve) => setImmediate(resolve));
        }),
      ),
    );
    expect(mostBusy()).toBe(2);
    expect(made()).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('replaces a client whose connection dropped', async () => {
    const { pool, closed, made } = pooled(1);
    const first = await pool.acquire();
    first.client.open = false;
    first.release();
    const second = await pool.acquire();
    expect(second.client.id).toBe(2);
    expect(second.fresh).toBe(true);
    expect(closed).toEqual([1]);
    second.release();
    const third = await pool.acquire();
    expect(third.client.id).toBe(2);
    expect(third.fresh).toBe(false);
    expect(made()).toBe(2);
  });

  it('hands the slot of a failed connection to the next waiter, which tries anew', async () => {
    let failures = 1;
    const { pool, use } = pooled(1, () => failures-- > 0);
    const holder = await pool.acquire().catch((error: unknown) => error);
    expect(holder).toMatchObject({ message: 'refused' });
    expect(await use(async (client) => client.id)).toBe(1);
  });

  it('closes idle clients, busy ones when released, and refuses waiters once closed', async () => {
    const { pool, closed } = pooled(1);
    const busy = await pool.acquire();
    const waiting = pool.acquire();
    pool.close();
    await expect(waiting).rejects.toThrow('closed');
    busy.release();
    expect(closed).toEqual([1]);
    await expect(pool.acquire()).rejects.toThrow('closed');
  });
});
