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

/** The only file that listens: reads the environment once, opens the database, serves SPA + API. */
async function main() {
  const config = readConfig();
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
  sweepAsLeader(deps).catch((error: unknown) => console.error('Sweeping stale uploads failed:', error));
  const stopSweeper = startUploadSweeper(deps);
  // Jobs the records leave queued or running (a restart, a kill -9) go on from their items.
  await jobsOf(deps).start();
  console.log(`Jobs instance: ${jobsOf(deps).instance}`);
  const stopSchedules = startScheduleClock(deps);
  // The mounts' search index: builds for mounts without one, the queue a killed build left, rescans when due.
  await indexerOf(deps).start();
  // Webhooks: the outbox a restart left is delivered, then whatever the features emit.
  deliveryOf(deps).start();

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = config.publicUrl ?? `http://${shownHost}:${info.port}`;
    console.log(`Clipstash is running at ${url}`);
    console.log(`Data folder: ${config.dataDir}`);
    console.log(`Database: ${config.databaseUrl ? describePostgresUrl(config.databaseUrl) : 'SQLite in the data folder'}`);
    if (generatedPassword) {
      console.log('');
      console.log('First start: an admin account was created. Log in at ' + `${url}/admin with:`);
      console.log(`  username: ${config.adminUsername}`);
      console.log(`  password: ${generatedPassword}`);
      console.log('This password is shown only once; change it under Admin → Settings.');
    } else {
      console.log(`Log in at ${url}/admin`);
    }
  });

  const shutdown = () => {
    stopSweeper();
    stopSchedules();
    server.close();
    // Another instance takes the sweep over at once instead of when the lease expires.
    // Running jobs put their items in flight back and let go of their leases: another instance goes on at once.
    // Views counted in memory, shares' accesses and the transfers' last state are written before the database closes.
    // The folder being indexed is finished; the rest of the queue waits in the database. Queued webhook events reach
    // the outbox.
    void Promise.all([jobsOf(deps).stop(), indexerOf(deps).stop()])
      .then(() => Promise.all([viewCountsOf(deps).flush(), accessRecorderOf(deps).flush(), transfersOf(deps).flush(), eventBusOf(deps).flush()]))
      // The delivery under way ends; the outbox keeps the rest for the next start (or another instance).
      .then(() => deliveryOf(deps).stop())
      .then(() => releaseLease(db, UPLOAD_SWEEP_LEASE))
      .catch(() => undefined)
      .then(() => db.destroy())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
