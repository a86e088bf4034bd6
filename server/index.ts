import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { ConfigError, readConfig } from './config';
import { openDatabase } from './db/database';
import { describePostgresUrl } from './db/dialect';
import { createSecretBox, loadEncryptionKey } from './security/secret-box';
import { ensureAdmin } from './features/auth/admins';
import { startUploadSweeper, sweepAsLeader, UPLOAD_SWEEP_LEASE } from './features/upload-sweeper';
import { releaseLease } from './db/leases';
import { assertStorageShared, localStorageAllowed } from './features/storages/shared-storage';
import { ensureDefaultStorage } from './features/storages/configs';
import { viewCountsOf } from './features/shares/view-counts';
import { accessRecorderOf } from './features/access-log/recorder';
import { transfersOf } from './features/transfers/registry';
import { jobsOf } from './features/jobs/service';
import { startScheduleClock } from './features/jobs/schedules';
import { indexerOf } from './features/search/indexer';
import { eventBusOf } from './features/events/bus';
import { deliveryOf } from './features/webhooks/delivery';
import { startDraining } from './features/settings/readiness';
import { log } from './observability/log';
import { drainServer } from './observability/drain';
import { metricsPortApp } from './observability/metrics-routes';

/**
 * How long an idle keep-alive connection stays open. A reverse proxy reuses its idle connections to the app for
 * about a minute (nginx's upstream keepalive_timeout and common load balancers: 60 s); with Node's own 5 s the app
 * closed them under the proxy, and a request the proxy had just sent on one failed (a 502 for the user).
 */
const KEEP_ALIVE_MS = 65_000;

/** The only file that listens: reads the environment once, opens the database, serves SPA + API. */
async function main() {
  const config = readConfig();
  log.level = config.logLevel;
  const db = await openDatabase(config.dataDir, config.databaseUrl);
  const secrets = createSecretBox(loadEncryptionKey(config.dataDir, config.encryptionKey));
  const now = () => new Date();
  const generatedPassword = await ensureAdmin(db, config, now());
  // A fresh install gets LOCAL storage unless it would live on one instance's disk only: then S3 comes first.
  if (localStorageAllowed(config)) await ensureDefaultStorage(db, now());
  await assertStorageShared(db, config).catch(async (error: unknown) => {
    await db.destroy();
    throw error;
  });
  const deps = { db, config, secrets, now };
  const app = createApp(deps);
  // In the background: moving an old install's shares into the share area may take a while on S3.
  sweepAsLeader(deps).catch((error: unknown) => log.error({ err: error }, 'Sweeping stale uploads failed'));
  const stopSweeper = startUploadSweeper(deps);
  // Jobs the records leave queued or running (a restart, a kill -9) go on from their items.
  await jobsOf(deps).start();
  log.info({ jobsInstance: jobsOf(deps).instance }, 'Jobs started');
  const stopSchedules = startScheduleClock(deps);
  // The mounts' search index: builds for mounts without one, the queue a killed build left, rescans when due.
  await indexerOf(deps).start();
  // Webhooks: the outbox a restart left is delivered, then whatever the features emit.
  deliveryOf(deps).start();

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = config.publicUrl ?? `http://${shownHost}:${info.port}`;
    log.info(
      { url, dataDir: config.dataDir, database: config.databaseUrl ? describePostgresUrl(config.databaseUrl) : 'SQLite in the data folder' },
      `Clipstash is running at ${url}`,
    );
    // Whoever started the server (a supervisor, a test) waits for this line: out at once, not with the next block.
    log.flush();
    if (generatedPassword) {
      // Shown to the person starting the server, once, as plain text: a password is never a log line.
      console.log(
        [
          '',
          `First start: an admin account was created. Log in at ${url}/admin with:`,
          `  username: ${config.adminUsername}`,
          `  password: ${generatedPassword}`,
          'This password is shown only once; change it under Admin → Settings.',
          '',
        ].join('\n'),
      );
    }
  }) as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : (serve({ fetch: metricsPortApp(deps).fetch, port: config.metricsPort, hostname: config.host }, (info) =>
          log.info({ port: info.port }, `Metrics at http://${config.host}:${info.port}/metrics`),
        ) as Server);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'Stopping at once: a second signal');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'Stopping: no new connections, requests in flight may finish');
    startDraining(deps);
    stopSweeper();
    stopSchedules();
    metricsServer?.close();
    // Running jobs put their items in flight back and let go of their leases: another instance goes on at once.
    // The folder being indexed is finished; the rest of the queue waits in the database.
    void Promise.all([drainServer(server, config.shutdownGraceMs), jobsOf(deps).stop(), indexerOf(deps).stop()])
      .then(([drained]) => {
        if (drained === 'cut') log.warn({ graceMs: config.shutdownGraceMs }, 'Requests still in flight after the grace period were cut');
      })
      // Views counted in memory, shares' accesses, the transfers' last state and queued webhook events are written
      // once the last request ended.
      .then(() => Promise.all([viewCountsOf(deps).flush(), accessRecorderOf(deps).flush(), transfersOf(deps).flush(), eventBusOf(deps).flush()]))
      // The delivery under way ends; the outbox keeps the rest for the next start (or another instance).
      .then(() => deliveryOf(deps).stop())
      // Another instance takes the sweep over at once instead of when the lease expires.
      .then(() => releaseLease(db, UPLOAD_SWEEP_LEASE))
      .catch((error: unknown) => log.error({ err: error }, 'Stopping: a last write failed'))
      .then(() => db.destroy())
      .finally(() => {
        log.info('Stopped');
        process.exit(0);
      });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) log.fatal(error.message);
  else log.fatal({ err: error }, 'The server could not start');
  process.exit(1);
});
