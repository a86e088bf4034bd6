import type { Permissions } from '../contract/auth';
import type { ServerConfig } from './config';
import type { DB } from './db/database';
import type { Lang } from './i18n/messages';
import type { FetchPolicy } from './net/safe-fetch';
import type { Logger } from './observability/log';
import type { SecretBox } from './security/secret-box';
import type { StorageConfigRow } from './storage/registry';
import type { RemoteFileSystem } from './storage/remote/remote-fs';

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'admin'; adminId: string; username: string; tokenHash: string }
  | { kind: 'apiKey'; keyId: string; name: string; basicPath: string; permissions: Permissions; expiresAt: string | null };

/** Why presented credentials were refused; protected routes answer 401 with it. */
export type CredentialProblem = 'token_expired' | 'api_key_invalid' | undefined;

/** What every route may use; built once in index.ts (or by a test) and handed to createApp. */
export interface AppDeps {
  db: DB;
  config: ServerConfig;
  secrets: SecretBox;
  now: () => Date;
  /**
   * How URL uploads reach the network: the resolver, time-outs, and (tests only) where a checked address is
   * really connected. Absent: the system resolver and the defaults of safe-fetch.ts. The SSRF checks always run.
   */
  urlFetch?: Omit<FetchPolicy, 'allowPrivate'>;
  /**
   * Tests only: the file system a WebDAV, SFTP or FTP config is served by, in place of its protocol's (a file system
   * in memory, for the routes over the remote driver). Absent: the protocol's (server/storage/remote/protocols.ts).
   */
  remoteFileSystemOf?: (config: StorageConfigRow) => RemoteFileSystem;
  /** Where the app's request lines and errors go; absent: the process's logger (server/observability/log.ts). */
  log?: Logger;
}

export interface AppEnv {
  Variables: {
    principal: Principal;
    credentialProblem: CredentialProblem;
    lang: Lang;
    /** The app's logger and the request's id: `requestLogger(c)` (server/observability/request-log.ts) stamps it. */
    log: Logger;
    requestId: string;
  };
}

/** `admin` or `apikey:<id>`: who created a record; keys see only their own. */
export function creatorOf(principal: Principal): string {
  if (principal.kind === 'admin') return 'admin';
  if (principal.kind === 'apiKey') return `apikey:${principal.keyId}`;
  throw new Error('An anonymous visitor creates nothing');
}
