import { createHash } from 'node:crypto';
import type { RunningS3rver } from '../fixtures/s3rver';

/** The admin API of a test server, with its token. */
export function adminApi(baseUrl: string, token: string) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}/api/admin/${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
}

/** Set-up through the API, as the admin: the s3rver bucket as a storage config, mounted at `mountPath`. */
export async function mountBucket(baseUrl: string, token: string, s3: RunningS3rver, mountPath = '/s3'): Promise<void> {
  const created = await fetch(`${baseUrl}/api/s3-configs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(s3.configRequest()),
  });
  const config = (await created.json()) as { data: { id: string } };
  const mount = await adminApi(baseUrl, token)('mounts', {
    method: 'POST',
    body: JSON.stringify({ name: 'Bucket', storage_type: 'S3', storage_config_id: config.data.id, mount_path: mountPath }),
  });
  if (mount.status !== 201) throw new Error(`mounting the bucket answered ${mount.status}`);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every file below a mount folder, by its path below it, with the SHA-256 of what the storage holds (none: empty). */
export async function storedTree(baseUrl: string, token: string, path: string, prefix = ''): Promise<Map<string, string>> {
  const api = adminApi(baseUrl, token);
  const files = new Map<string, string>();
  const answer = await api(`fs/list?path=${encodeURIComponent(path)}&refresh=true`);
  if (answer.status === 404) return files;
  const listing = (await answer.json()) as { data: { items: { name: string; path: string; isDirectory: boolean }[] } };
  for (const item of listing.data.items) {
    if (item.isDirectory) for (const [name, hash] of await storedTree(baseUrl, token, item.path, `${prefix}${item.name}/`)) files.set(name, hash);
    else files.set(`${prefix}${item.name}`, sha256(new Uint8Array(await (await api(`fs/download?path=${encodeURIComponent(item.path)}`)).arrayBuffer())));
  }
  return files;
}
