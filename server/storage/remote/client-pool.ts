/** A client lent by the pool; `release` hands it back (once the work with it is over, streams included). */
export interface Lease<C> {
  client: C;
  /** True when the client was connected for this lease (a failure then is not a stale connection's). */
  fresh: boolean;
  release(): void;
}

export interface ClientPool<C> {
  /** A client of its own for one operation; waits while `max` clients are busy. */
  acquire(): Promise<Lease<C>>;
  /** Closes idle clients now and busy ones when released; the pool lends nothing after. */
  close(): void;
}

export interface ClientPoolOptions<C> {
  max: number;
  connect(): Promise<C>;
  /** False once the client's connection dropped: it is closed and replaced by a new one. */
  isOpen(client: C): boolean;
  close(client: C): void;
}

/**
 * Up to `max` connected clients, each lent to one operation at a time (protocols such as FTP carry one command or
 * transfer per connection); the rest wait in order. A client whose connection dropped while idle or in use is
 * replaced by a new connection when next needed, so a restarted server is reached again without a restart here.
 */
export function createClientPool<C>(options: ClientPoolOptions<C>): ClientPool<C> {
  const idle: C[] = [];
  /** Each waiter gets a slot: an idle client, or the right to connect one. */
  const waiters: ((client: C | undefined) => void)[] = [];
  let slotsTaken = 0;
  let closed = false;

  const lease = (client: C, fresh: boolean): Lease<C> => {
    let released = false;
    return {
      client,
      fresh,
      release() {
        if (released) return;
        released = true;
        giveBack(options.isOpen(client) && !closed ? client : undefined, client);
      },
    };
  };

  /** Hands a slot on: to the first waiter, else back to the idle list (or frees it when its client is gone). */
  function giveBack(client: C | undefined, toClose?: C) {
    if (!client && toClose !== undefined) options.close(toClose);
    const next = waiters.shift();
    if (next) {
      next(client);
      return;
    }
    if (client) idle.push(client);
    else slotsTaken--;
  }

  async function fill(slot: C | undefined): Promise<Lease<C>> {
    if (slot !== undefined && options.isOpen(slot)) return lease(slot, false);
    if (slot !== undefined) options.close(slot);
    try {
      return lease(await options.connect(), true);
    } catch (error) {
      // The slot goes to the next waiter, which tries again (a server back up, or the same clear error).
      giveBack(undefined);
      throw error;
    }
  }

  return {
    async acquire() {
      if (closed) throw new Error('The connection pool is closed');
      const ready = idle.pop();
      if (ready !== undefined) return fill(ready);
      if (slotsTaken < options.max) {
        slotsTaken++;
        return fill(undefined);
      }
      const slot = await new Promise<C | undefined>((resolve) => waiters.push(resolve));
      if (closed) {
        if (slot !== undefined) options.close(slot);
        throw new Error('The connection pool is closed');
      }
      return fill(slot);
    },
    close() {
      closed = true;
      for (const client of idle.splice(0)) options.close(client);
      for (const waiter of waiters.splice(0)) waiter(undefined);
    },
  };
}
