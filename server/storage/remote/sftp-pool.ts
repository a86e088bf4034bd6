import type { SftpConnection } from './sftp-connect';

export interface SftpPoolOptions {
  /** Opens a connection; `onGone` is called once it closes or fails, so the pool drops it. */
  open(onGone: () => void): Promise<SftpConnection>;
  maxConnections: number;
  /** How long a connection with nothing in flight stays open. */
  idleMs: number;
}

export interface SftpLease {
  connection: SftpConnection;
  release(): void;
}

interface Pooled {
  connection: SftpConnection;
  busy: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Up to `maxConnections` SSH connections, shared: SFTP carries many requests at once over one session, so each call
 * takes the least busy connection and a new one opens only while every open one is busy. A connection that closes
 * or fails leaves the pool at once (the next call opens another); one idle for `idleMs` is closed.
 */
export function createSftpPool({ open, maxConnections, idleMs }: SftpPoolOptions) {
  const live = new Set<Pooled>();
  const opening = new Set<Promise<Pooled>>();
  let closed = false;

  function openOne(): Promise<Pooled> {
    let pooled: Pooled | undefined;
    const drop = () => {
      if (!pooled) return;
      clearTimeout(pooled.idleTimer);
      live.delete(pooled);
    };
    const attempt = open(drop).then((connection) => {
      pooled = { connection, busy: 0 };
      live.add(pooled);
      return pooled;
    });
    opening.add(attempt);
    void attempt.then(
      () => opening.delete(attempt),
      () => opening.delete(attempt),
    );
    return attempt;
  }

  async function pick(): Promise<Pooled> {
    const leastBusy = [...live].sort((a, b) => a.busy - b.busy)[0];
    if (leastBusy && (leastBusy.busy === 0 || live.size + opening.size >= maxConnections)) return leastBusy;
    if (live.size + opening.size < maxConnections) return openOne();
    // Every slot is a connection still opening: share the first that opens.
    return Promise.race(opening);
  }

  function release(pooled: Pooled) {
    pooled.busy--;
    if (pooled.busy > 0 || !live.has(pooled)) return;
    pooled.idleTimer = setTimeout(() => {
      live.delete(pooled);
      void pooled.connection.end().catch(() => undefined);
    }, idleMs);
    pooled.idleTimer.unref();
  }

  async function lease(): Promise<SftpLease> {
    if (closed) throw new Error('The SFTP file system is closed');
    const pooled = await pick();
    clearTimeout(pooled.idleTimer);
    pooled.busy++;
    let released = false;
    return {
      connection: pooled.connection,
      release: () => {
        if (released) return;
        released = true;
        release(pooled);
      },
    };
  }

  return {
    lease,
    /** Runs `work` on a pooled connection, which is given back when it settles. */
    async use<T>(work: (connection: SftpConnection) => Promise<T>): Promise<T> {
      const { connection, release: done } = await lease();
      try {
        return await work(connection);
      } finally {
        done();
      }
    },
    /** How many connections are open (for tests and figures). */
    get size() {
      return live.size;
    },
    async close() {
      closed = true;
      await Promise.allSettled([...opening]);
      const all = [...live];
      live.clear();
      await Promise.allSettled(
        all.map((pooled) => {
          clearTimeout(pooled.idleTimer);
          return pooled.connection.end();
        }),
      );
    },
  };
}
