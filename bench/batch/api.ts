import { s3rverConfigRequest } from '../../tests/fixtures/s3rver';
import type { S3rverProcess } from '../transfer/s3rver-process';

/** The admin API calls the batch bench makes from Node (set-up and the final check), with one token. */
export class AdminApi {
  constructor(
    readonly serverUrl: string,
    readonly token: string,
  ) {}

  private async call(method: string, route: string, body?: unknown): Promise<unknown> {
    const answer = await fetch(`${this.serverUrl}${route}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    if (answer.status >= 300) throw new Error(`${method} ${route} answered ${answer.status}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: unknown }).data;
  }

  /** Mounts the s3rver's bucket at `/<mountPath>` through a storage config of its own. */
  async mountS3rver(s3: S3rverProcess, mountPath: string): Promise<void> {
    const config = (await this.call('POST', '/api/s3-configs', s3rverConfigRequest(s3.endpoint, s3.bucket))) as { id: string };
    await this.call('POST', '/api/admin/mounts', { name: 'Batch bench', storage_type: 'S3', storage_config_id: config.id, mount_path: mountPath });
  }

  async mkdir(path: string): Promise<void> {
    await this.call('POST', '/api/admin/fs/mkdir', { path });
  }

  /**
   * Every file under `folder` (which ends in `/`), by its path below it, with its size: the listing API, fresh from
   * the storage (`refresh=true`), folder by folder.
   */
  async filesUnder(folder: string): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const pending = [folder];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const listing = (await this.call('GET', `/api/admin/fs/list?path=${encodeURIComponent(next)}&refresh=true`)) as {
        items: { path: string; isDirectory: boolean; size: number }[];
      };
      for (const item of listing.items) {
        if (item.isDirectory) pending.push(item.path.endsWith('/') ? item.path : `${item.path}/`);
        else found.set(item.path.slice(folder.length), item.size);
      }
    }
    return found;
  }
}
