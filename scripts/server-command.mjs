// How the production server process is started: by `npm start` and `npm run serve`, the browser tests and the
// benchmarks alike, so that what they measure is what runs.

/** The server's bundle (scripts/build-server.mjs). */
export const SERVER_ENTRY = 'dist-server/index.js';

/**
 * V8's young generation at 8 MiB a semi-space instead of 16: the objects of a job's files in flight then die
 * young rather than being promoted, and the old space does not fill with them before a full collection. A
 * 2,000-file copy job peaked at 173–181 MiB of RSS against 181–226, at the same CPU (bench/README.md, server-copy).
 * The old space is let grow by half its live size between full collections, where V8 lets a fast-allocating heap
 * grow up to fourfold: copy jobs' peak RSS 158–180 MiB against 216–257, at the same job times and paste reads.
 * Its limit never drops below 64 MiB, though: over a live heap of about 40 MiB, the chunks a large download or upload
 * has in flight when a scavenge comes reached the limit every 20 MiB or so, and full collections cost a 512 MiB
 * download from WebDAV or FTP 1.2–1.8 s of server CPU against 0.6–0.8 (copy jobs' peak RSS 191–192 MiB).
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=8', '--heap-growing-percent=50', '--initial-old-space-size=64', SERVER_ENTRY];
