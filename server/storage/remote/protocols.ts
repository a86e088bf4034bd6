import { ApiError } from '../../errors';
import type { SecretBox } from '../../security/secret-box';
import type { StorageConfigRow } from '../registry';
import type { RemoteKind } from './context';
import type { RemoteFileSystem } from './remote-fs';

/** The secrets of a config, opened for its file system only (never logged, never answered). */
export const openedSecret = (secrets: SecretBox, sealed: string | null): string | undefined => (sealed ? secrets.open(sealed) : undefined);

/**
 * The file system of a WebDAV, SFTP or FTP config. Until the protocols are merged every kind answers "not
 * available"; at merge this calls createWebdavFileSystem (webdav.ts), createSftpFileSystem (sftp.ts) and
 * createFtpFileSystem (ftp.ts) with the config's columns and opened secrets.
 */
export function remoteFileSystemOf(config: StorageConfigRow & { storage_type: RemoteKind }, _secrets: SecretBox): RemoteFileSystem {
  throw new ApiError(501, 'storage_protocol_unavailable', { kind: config.storage_type }, { storage_type: config.storage_type });
}
