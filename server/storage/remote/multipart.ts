import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { matchParts, type CompletedPart } from '../driver';
import { joinedParts } from '../local/multipart';
import { locked, storedParts, uploadDir } from '../local/uploads';
import { remotePathOf, type RemoteContext } from './context';
import { put } from './objects';

/**
 * Parts wait on this server's disk (LOCAL's multipart over the staging folder); completing streams them, checked
 * part by part, into one remote `put`. The staged parts are dropped only once the object is in place: a failed
 * put leaves the upload whole, to complete again.
 */
export async function completeMultipart(context: RemoteContext, key: string, uploadId: string, parts: CompletedPart[]): Promise<string> {
  remotePathOf(context, key);
  return locked(context.staging, uploadId, async () => {
    const dir = await uploadDir(context.staging, key, uploadId);
    const stored = new Map((await storedParts(dir)).map((part) => [part.partNumber, part]));
    const matched = matchParts(parts, [...stored.values()]);
    const head = await put(context, key, Readable.from(joinedParts(matched, stored)));
    await rm(dir, { recursive: true, force: true });
    return head.etag;
  });
}
