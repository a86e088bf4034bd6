import { ApiError } from '../../errors';
import type { SecretBox } from '../../security/secret-box';
import type { StorageConfigRow } from '../registry';
import type { RemoteKind } from './context';
import { createFtpFileSystem } from './ftp';
import type { RemoteFileSystem } from './remote-fs';
import { createWebdavFileSystem } from './webdav';

/** The file system of a WebDAV, SFTP or FTP config, its secrets opened with `secrets` for it alone. */
export function remoteFileSystemOf(config: StorageConfigRow & { storage_type: RemoteKind }, secrets: SecretBox): RemoteFileSystem {
  const open = (sealed: string | null) => (sealed ? secrets.open(sealed) : undefined);
  switch (config.storage_type) {
    case 'WEBDAV':
      return createWebdavFileSystem({
        endpointUrl: config.endpoint_url ?? '',
        username: config.username ?? '',
        password: open(config.password_encrypted) ?? '',
      });
    case 'FTP':
      return createFtpFileSystem({
        host: config.host ?? '',
        port: config.port ?? 21,
        username: config.username ?? '',
        password: open(config.password_encrypted) ?? '',
        tls: config.tls ?? 'none',
        passive: config.passive !== 0,
      });
    default:
      throw new ApiError(501, 'storage_protocol_unavailable', { kind: config.storage_type }, { storage_type: config.storage_type });
  }
}
