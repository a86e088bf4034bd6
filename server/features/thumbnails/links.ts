import { THUMBNAIL_WIDTHS, type ThumbnailSize } from '../../../contract/thumbnails';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import { isWithin, type FsPath } from '../fs/paths';
import { mountTarget, type MountTarget } from '../fs/resolve';

const PURPOSE = 'fs-thumbnail';
const DAY_SECONDS = 86_400;

/**
 * When a link made now expires: the end of tomorrow (UTC), so that links made on one day are the same URL and
 * the browser's cache of them holds, and no link lives longer than two days.
 */
const expiryOf = (now: Date) => (Math.floor(now.getTime() / 1000 / DAY_SECONDS) + 2) * DAY_SECONDS;

const messageOf = (mountId: string, path: string, expires: number) => `${mountId}\n${path}\n${expires}`;

/**
 * Signed URLs of a file's thumbnails, for `<img>` (which sends no credentials). The caller has resolved `target`
 * with its own rights; the link lets its bearer see that file's thumbnails, and nothing else, until it expires.
 * The browser adds `v` (the entry's ETag), which the signature leaves out: it only tells cached versions apart.
 */
export function thumbnailLinks(deps: AppDeps, target: MountTarget): Record<ThumbnailSize, string> {
  const expires = expiryOf(deps.now());
  const sig = deps.secrets.sign(PURPOSE, messageOf(target.mount.id, target.path.text, expires));
  const url = (size: ThumbnailSize) =>
    `/api/fs-thumbnail?${new URLSearchParams({ path: target.path.text, mount: target.mount.id, size, expires: String(expires), sig })}`;
  return Object.fromEntries(Object.keys(THUMBNAIL_WIDTHS).map((size) => [size, url(size as ThumbnailSize)])) as Record<ThumbnailSize, string>;
}

/** The file a signed link names, while the link is valid and its mount still holds the path. */
export async function targetOfLink(deps: AppDeps, link: { path: FsPath; mount: string; expires: string; sig: string }): Promise<MountTarget> {
  const expires = Number(link.expires);
  const valid = deps.secrets.verify(PURPOSE, messageOf(link.mount, link.path.text, expires), link.sig) && expires * 1000 > deps.now().getTime();
  if (!valid) throw new ApiError(403, 'file_link_invalid');
  const mount = await deps.db.selectFrom('mounts').selectAll().where('id', '=', link.mount).where('is_active', '=', 1).executeTakeFirst();
  if (!mount || !isWithin(link.path, mount.mount_path)) throw new ApiError(404, 'fs_not_found', { path: link.path.text });
  return mountTarget(deps, mount, link.path);
}
