import type { Server } from 'node:http';

/** How often idle keep-alive connections are closed while draining: a request that just ended leaves one behind. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops `server` gracefully: no new connections from now on, idle keep-alive ones closed, and requests in flight given
 * `graceMs` to end before their connections are cut. Answers whether they ended in time (`drained`) or were cut.
 */
export function drainServer(server: Server, graceMs: number): Promise<'drained' | 'cut'> {
  return new Promise((resolve) => {
    // close() closes only the connections idle at the time; one whose request ends later would hold it open until
    // its keep-alive time-out.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const grace = setTimeout(() => {
      server.closeAllConnections();
      end('cut');
    }, graceMs);
    const end = (outcome: 'drained' | 'cut') => {
      clearInterval(sweep);
      clearTimeout(grace);
      resolve(outcome);
    };
    server.close(() => end('drained'));
  });
}
