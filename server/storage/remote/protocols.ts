import { ApiError } from '../../errors';
import type { SecretBox } from '../../security/secret-box';
import type { StorageConfigRow } from '../registry';
import type { RemoteKind } from './context';
import type { RemoteFileSystem } from './remote-fs';

/** The file system of a WebDAV, SFTP or FTP config, its secrets opened with `secrets` for it alone. */
export function remoteFileSystemOf(config: StorageConfigRow & { storage_type: RemoteKind }, _secrets: SecretBox): RemoteFileSystem {
  // At merge: createWebdavFileSystem (webdav.ts), createSftpFileSystem (sftp.ts), createFtpFileSystem (ftp.ts) replace this.
  throw new ApiError(501, 'storage_protocol_unavailable', { kind: config.storage_type }, { storage_type: config.storage_type });
}
