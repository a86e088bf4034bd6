import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { matchParts, type CompletedPart } from '../driver';
import { joinedParts } from '../local/multipart';
import { locked, storedParts, uploadDir } from '../local/uploads';
import { remotePathOf, type RemoteContext } from './context';
import { placePartial, put } from './objects';
import type { PartRelays } from './part-relay';
import { log } from '../../observability/log';

/**
 * Parts wait on this server's disk (LOCAL's multipart over the staging folder), and their relay has most often
 * written them on already (remote/part-relay.ts): completing then sends the rest and renames the file into place.
 * Without a relay, or when its file does not hold exactly these parts, completing streams them, checked part by
 * part, into one remote `put`. The staged parts are dropped only once the object is in place: a failed put leaves
 * the upload whole, to complete again.
 */
export async function completeMultipart(context: RemoteContext, relays: PartRelays, key: string, uploadId: string, parts: CompletedPart[]): Promise<string> {
  remotePathOf(context, key);
  return locked(context.staging, uploadId, async () => {
    const dir = await uploadDir(context.staging, key, uploadId);
    const stored = new Map((await storedParts(dir)).map((part) => [part.partNumber, part]));
    const matched = matchParts(parts, [...stored.values()]);
    const relayed = await relays.take(uploadId)?.finish(matched);
    // A relayed file that cannot be renamed into place (its folder went meanwhile) is given up for the staged parts.
    const placed = relayed
      ? await placePartial(context, relayed, key).catch((error: unknown) => {
          log.warn({ err: error }, `${context.type} storage ${context.configId}: a relayed upload could not be renamed into place; sending its parts again`);
          return undefined;
        })
      : undefined;
    const head = placed ?? (await put(context, key, Readable.from(joinedParts(matched, stored))));
    await rm(dir, { recursive: true, force: true });
    return head.etag;
  });
}
