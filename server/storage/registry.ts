import { join } from 'node:path';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../context';
import type { StorageConfigsTable } from '../db/schema';
import { checkHost, UrlRefusedError } from '../net/safe-fetch';
import type { StorageDriver } from './driver';
import { createLocalDriver } from './local';
import { createRemoteDriver, isRemoteDriver, type RemoteStorageDriver } from './remote/driver';
import { remoteFileSystemOf } from './remote/protocols';
import type { AddressOf } from './remote/remote-fs';
import { createS3Driver } from './s3';
import { log } from '../observability/log';

export type StorageConfigRow = Selectable<StorageConfigsTable>;

/** The folder of a LOCAL config: `DATA_DIR/storage/<config id>`. */
export const localRootOf = (deps: AppDeps, configId: string) => join(deps.config.dataDir, 'storage', configId);

/** Where the multipart parts of WebDAV, SFTP and FTP storages wait: `DATA_DIR/remote-staging`, a folder per config. */
export const remoteStagingFolderOf = (deps: AppDeps) => join(deps.config.dataDir, 'remote-staging');

export const isRemoteConfig = (config: StorageConfigRow): config is StorageConfigRow & { storage_type: RemoteStorageDriver['type'] } =>
  config.storage_type === 'WEBDAV' || config.storage_type === 'SFTP' || config.storage_type === 'FTP';

/**
 * The folder a config's keys start with: its folder for LOCAL and S3; '' for WebDAV, SFTP and FTP, whose driver is
 * rooted in that folder on the server already (so a share's key does not name it twice).
 */
export const keyFolderOf = (config: StorageConfigRow): string => (isRemoteConfig(config) ? '' : config.default_folder);

/** Drivers are kept per app and config version: an edited config gets a fresh client. */
const cache = new WeakMap<AppDeps, Map<string, StorageDriver>>();

export function driverFor(deps: AppDeps, config: StorageConfigRow): StorageDriver {
  let drivers = cache.get(deps);
  if (!drivers) {
    drivers = new Map();
    cache.set(deps, drivers);
  }
  const version = `${config.id}@${config.updated_at}`;
  let driver = drivers.get(version);
  if (!driver) {
    forgetDriver(deps, config.id);
    driver = createDriver(deps, config);
    drivers.set(version, driver);
  }
  return driver;
}

/** Drops the cached driver of a deleted config, closing a remote one's connections. */
export function forgetDriver(deps: AppDeps, configId: string): void {
  const drivers = cache.get(deps);
  for (const [version, driver] of drivers ?? []) {
    if (!version.startsWith(`${configId}@`)) continue;
    drivers?.delete(version);
    closeQuietly(driver);
  }
}

/** A remote driver holds pooled connections: they go with it (a request still using them fails). */
function closeQuietly(driver: StorageDriver) {
  if (isRemoteDriver(driver)) driver.close().catch((error: unknown) => log.warn({ err: error }, 'Closing a storage connection failed'));
}

/**
 * The SSRF guard of URL uploads at every connection to a storage server (see assertHostAllowed for the same check
 * when the config is saved): private addresses only with ALLOW_PRIVATE_URLS or the config's own allow.
 */
function guardedAddressOf(deps: AppDeps, config: StorageConfigRow): AddressOf {
  const policy = { ...deps.urlFetch, allowPrivate: deps.config.allowPrivateUrls || config.allow_private_host === 1 };
  return (host) =>
    checkHost(host, policy).catch((error: unknown) => {
      if (!(error instanceof UrlRefusedError)) throw error;
      const code = error.reason === 'unresolvable' ? 'ENOTFOUND' : 'HostRefused';
      throw Object.assign(new Error(error.message, { cause: error }), { code });
    });
}

/** A driver for a config that may not be saved yet (or was just changed). */
export function createDriver(deps: AppDeps, config: StorageConfigRow): StorageDriver {
  if (config.storage_type === 'LOCAL') {
    return createLocalDriver({ root: localRootOf(deps, config.id), configId: config.id, secrets: deps.secrets, now: deps.now });
  }
  if (isRemoteConfig(config)) {
    return createRemoteDriver({
      type: config.storage_type,
      fs: deps.remoteFileSystemOf?.(config) ?? remoteFileSystemOf(config, deps.secrets, guardedAddressOf(deps, config)),
      configId: config.id,
      folder: config.default_folder,
      stagingRoot: join(remoteStagingFolderOf(deps), config.id),
      secrets: deps.secrets,
      now: deps.now,
    });
  }
  return createS3Driver({
    endpoint: config.endpoint_url ?? '',
    region: config.region ?? 'us-east-1',
    bucket: config.bucket_name ?? '',
    accessKeyId: config.access_key_id ?? '',
    secretAccessKey: config.secret_access_key_encrypted ? deps.secrets.open(config.secret_access_key_encrypted) : '',
    pathStyle: config.path_style === 1,
    folder: config.default_folder,
  });
}
