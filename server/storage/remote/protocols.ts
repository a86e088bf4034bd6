import type { SecretBox } from '../../security/secret-box';
import type { StorageConfigRow } from '../registry';
import type { RemoteKind } from './context';
import { createFtpFileSystem } from './ftp';
import type { AddressOf, RemoteFileSystem } from './remote-fs';
import { createSftpFileSystem } from './sftp';
import { createWebdavFileSystem } from './webdav';

/**
 * The file system of a WebDAV, SFTP or FTP config, its secrets opened with `secrets` for it alone, its connections
 * going where `addressOf` says.
 */
export function remoteFileSystemOf(
  config: StorageConfigRow & { storage_type: RemoteKind },
  secrets: SecretBox,
  addressOf: AddressOf,
): RemoteFileSystem {
  const open = (sealed: string | null) => (sealed ? secrets.open(sealed) : undefined);
  switch (config.storage_type) {
    case 'WEBDAV':
      return createWebdavFileSystem({
        endpointUrl: config.endpoint_url ?? '',
        username: config.username ?? '',
        password: open(config.password_encrypted) ?? '',
        addressOf,
      });
    case 'SFTP':
      return createSftpFileSystem({
        host: config.host ?? '',
        port: config.port ?? 22,
        username: config.username ?? '',
        password: open(config.password_encrypted),
        privateKey: open(config.private_key_encrypted),
        passphrase: open(config.passphrase_encrypted),
        hostKeySha256: config.host_key_sha256 ?? undefined,
        addressOf,
      });
    case 'FTP':
      return createFtpFileSystem({
        host: config.host ?? '',
        port: config.port ?? 21,
        username: config.username ?? '',
        password: open(config.password_encrypted) ?? '',
        tls: config.tls ?? 'none',
        passive: config.passive !== 0,
        addressOf,
      });
  }
}
