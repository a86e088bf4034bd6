import type { Insertable, Updateable } from 'kysely';
import { SECRET_MASK } from '../../../contract/storage';
import type { AppDeps } from '../../context';
import type { StorageConfigsTable } from '../../db/schema';
import { ApiError, badInput } from '../../errors';
import { checkHost, UrlRefusedError } from '../../net/safe-fetch';
import type { StorageConfigRow } from '../../storage/registry';
import { urlProblem } from '../file-shares/url-uploads';
import type { CreateStorageConfigInput, UpdateStorageConfigInput } from './configs';

type RemoteInput = Extract<CreateStorageConfigInput, { storage_type: 'WEBDAV' | 'SFTP' | 'FTP' }>;
type Columns = Omit<Insertable<StorageConfigsTable>, 'id' | 'name' | 'default_folder' | 'total_storage_bytes' | 'is_public' | 'is_default' | 'created_by' | 'created_at' | 'updated_at' | 'last_used'>;

/** The columns every WebDAV, SFTP and FTP config leaves empty (the S3 ones; WebDAV's address is `endpoint_url`). */
const UNUSED = { region: null, bucket_name: null, access_key_id: null, secret_access_key_encrypted: null, path_style: 0 } as const;

const sealed = (deps: AppDeps, secret: string) => (secret === '' ? null : deps.secrets.seal(secret));

/** A secret an edit sends: absent, empty or the mask shown to the form keep the stored one. */
const changedSecret = (secret: string | undefined): secret is string => secret !== undefined && secret !== '' && secret !== SECRET_MASK;

/** The columns of a new WebDAV, SFTP or FTP config, its secrets sealed. */
export function remoteColumnsOf(deps: AppDeps, input: RemoteInput): Columns {
  const allow_private_host = input.allow_private_host ? 1 : 0;
  const base = { ...UNUSED, storage_type: input.storage_type, provider_type: input.storage_type, username: input.username, allow_private_host };
  if (input.storage_type === 'WEBDAV') {
    return { ...base, endpoint_url: input.endpoint_url.replace(/\/+$/, ''), password_encrypted: sealed(deps, input.password) };
  }
  // SFTP and FTP reach a host and port, with a password (SFTP: or a key instead).
  const reached = { ...base, endpoint_url: null, host: input.host, port: input.port, password_encrypted: sealed(deps, input.password) };
  if (input.storage_type === 'SFTP') {
    if (input.password === '' && input.private_key === '') throw badInput('password', 'password_or_key_required');
    return {
      ...reached,
      private_key_encrypted: sealed(deps, input.private_key),
      passphrase_encrypted: sealed(deps, input.passphrase),
      host_key_sha256: input.host_key_sha256 || null,
    };
  }
  return { ...reached, tls: input.tls, passive: input.passive ? 1 : 0 };
}

/** The changes an edit makes to a WebDAV, SFTP or FTP config; fields of other kinds are ignored, as for S3. */
export function remoteChangesOf(deps: AppDeps, row: StorageConfigRow, input: UpdateStorageConfigInput): Updateable<StorageConfigsTable> {
  const changes: Updateable<StorageConfigsTable> = {};
  if (input.username !== undefined) changes.username = input.username;
  if (changedSecret(input.password)) changes.password_encrypted = deps.secrets.seal(input.password);
  if (input.allow_private_host !== undefined) changes.allow_private_host = input.allow_private_host ? 1 : 0;
  if (row.storage_type === 'WEBDAV') {
    if (input.endpoint_url !== undefined) changes.endpoint_url = input.endpoint_url.replace(/\/+$/, '');
    return changes;
  }
  if (input.host !== undefined) changes.host = input.host;
  if (input.port !== undefined) changes.port = input.port;
  if (row.storage_type === 'SFTP') {
    if (changedSecret(input.private_key)) changes.private_key_encrypted = deps.secrets.seal(input.private_key);
    if (changedSecret(input.passphrase)) changes.passphrase_encrypted = deps.secrets.seal(input.passphrase);
    if (input.host_key_sha256 !== undefined) changes.host_key_sha256 = input.host_key_sha256 || null;
  } else {
    if (input.tls !== undefined) changes.tls = input.tls;
    if (input.passive !== undefined) changes.passive = input.passive ? 1 : 0;
  }
  return changes;
}

/** The host a config connects to, and the field that names it. */
function hostOf(config: Pick<StorageConfigRow, 'storage_type' | 'host' | 'endpoint_url'>): { host: string; field: string } | undefined {
  if (config.storage_type === 'WEBDAV' && config.endpoint_url) return { host: new URL(config.endpoint_url).hostname.replace(/^\[|\]$/g, ''), field: 'endpoint_url' };
  if ((config.storage_type === 'SFTP' || config.storage_type === 'FTP') && config.host) return { host: config.host, field: 'host' };
  return undefined;
}

/**
 * The SSRF guard of URL uploads, for a storage server: a host resolving to a loopback or private address is refused
 * unless ALLOW_PRIVATE_URLS is set or the admin allowed it for this config; cloud metadata and the like never.
 */
export async function assertHostAllowed(deps: AppDeps, config: Pick<StorageConfigRow, 'storage_type' | 'host' | 'endpoint_url' | 'allow_private_host'>) {
  const target = hostOf(config);
  if (!target) return;
  try {
    await checkHost(target.host, { ...deps.urlFetch, allowPrivate: deps.config.allowPrivateUrls || config.allow_private_host === 1 });
  } catch (error) {
    if (!(error instanceof UrlRefusedError)) throw error;
    const refused = urlProblem(error) as ApiError;
    throw new ApiError(400, refused.messageKey, refused.params, { ...refused.data, field: target.field });
  }
}
