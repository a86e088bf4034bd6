import { assertSafeFolder, bareEtag, type FolderListing, type ListedObject } from '../driver';
import type { S3Bucket } from './bucket';

/**
 * Every page of a listing under `prefix` (with `/` as delimiter for one level). The first version of
 * ListObjects pages by key (`Marker`): every S3-compatible service speaks it, and its pages need no opaque
 * token (s3rver's V2 tokens need a cipher that OpenSSL 3 no longer offers).
 */
export async function* pagesOf(bucket: S3Bucket, prefix: string, delimiter?: string) {
  const { s3, client } = await bucket.connected();
  let Marker: string | undefined;
  for (;;) {
    const page = await client.send(new s3.ListObjectsCommand({ Bucket: bucket.Bucket, Prefix: prefix, Delimiter: delimiter, Marker }));
    yield page;
    const last = [...(page.Contents ?? []).map((object) => object.Key ?? ''), ...(page.CommonPrefixes ?? []).map((common) => common.Prefix ?? '')].sort().at(-1);
    const next = page.NextMarker ?? last;
    if (!page.IsTruncated || !next || next === Marker) return;
    Marker = next;
  }
}

/** The key prefix of a folder's contents ('' for the root). */
export const prefixOf = (folder: string) => {
  assertSafeFolder(folder);
  return folder === '' ? '' : `${folder}/`;
};

const listed = (object: { Key?: string; Size?: number; ETag?: string; LastModified?: Date }): ListedObject => ({
  key: object.Key ?? '',
  size: object.Size ?? 0,
  etag: object.ETag ? bareEtag(object.ETag) : null,
  modified: object.LastModified ?? null,
});

/** A folder's direct contents, or (`recursive`) everything below it. */
export async function listFolder(bucket: S3Bucket, folder: string, recursive: boolean): Promise<FolderListing> {
  const prefix = prefixOf(folder);
  const folders = new Set<string>();
  const objects: ListedObject[] = [];
  for await (const page of pagesOf(bucket, prefix, recursive ? undefined : '/')) {
    for (const common of page.CommonPrefixes ?? []) if (common.Prefix) folders.add(common.Prefix.slice(0, -1));
    for (const object of page.Contents ?? []) {
      const key = object.Key ?? '';
      if (key.endsWith('/')) {
        // A folder marker: the folder itself, or (recursively) an empty subfolder.
        if (key !== prefix) folders.add(key.slice(0, -1));
        continue;
      }
      objects.push(listed(object));
      if (recursive) {
        // Folders that exist only because objects are in them.
        const parents = key.slice(prefix.length).split('/').slice(0, -1);
        parents.forEach((_, index) => folders.add(prefix + parents.slice(0, index + 1).join('/')));
      }
    }
  }
  return { folders: [...folders], objects };
}
