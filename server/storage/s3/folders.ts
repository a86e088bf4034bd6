import { UnsafeKeyError } from '../driver';
import { forEachAtOnce } from '../at-once';
import type { S3Bucket } from './bucket';
import { pagesOf, prefixOf } from './listing';

/** A folder exists while any key starts with its prefix (its marker, or something in it). */
export async function folderExists(bucket: S3Bucket, folder: string): Promise<boolean> {
  if (folder === '') return true;
  const { s3, client } = await bucket.connected();
  const page = await client.send(new s3.ListObjectsCommand({ Bucket: bucket.Bucket, Prefix: prefixOf(folder), MaxKeys: 1 }));
  return (page.Contents?.length ?? 0) + (page.CommonPrefixes?.length ?? 0) > 0;
}

/** An empty folder is a marker object: its prefix, with no bytes. */
export async function makeFolder(bucket: S3Bucket, folder: string): Promise<void> {
  if (folder === '') return;
  const { s3, client } = await bucket.connected();
  await client.send(new s3.PutObjectCommand({ Bucket: bucket.Bucket, Key: prefixOf(folder), Body: Buffer.alloc(0) }));
}

/** Deletes keys a few at a time (single deletes: every S3-compatible service speaks them). */
async function deleteKeys(bucket: S3Bucket, keys: string[]) {
  const { s3, client } = await bucket.connected();
  await forEachAtOnce(keys, 8, async (key) => {
    await client.send(new s3.DeleteObjectCommand({ Bucket: bucket.Bucket, Key: key }));
  });
}

export async function removeFolder(bucket: S3Bucket, folder: string): Promise<void> {
  if (folder === '') throw new UnsafeKeyError(folder);
  const prefix = prefixOf(folder);
  const keys: string[] = [];
  for await (const page of pagesOf(bucket, prefix)) for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
  await deleteKeys(bucket, keys);
}
