import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { InvalidPartError, matchParts, type CompletedPart, type StoredPart } from '../driver';
import { joinedParts } from '../local/multipart';
import { locked, storedParts, uploadDir } from '../local/uploads';
import { remotePathOf, type RemoteContext } from './context';
import { placePartial, put } from './objects';
import type { PartRelays } from './part-relay';
import { log } from '../../observability/log';

/**
 * The parts an upload holds: those staged, and those its relay sent on as they arrived (newer than a staged part of
 * their number, which the relay would not have taken otherwise).
 */
export function withSentLive<T extends StoredPart>(staged: T[], sentLive: StoredPart[]): (T | StoredPart)[] {
  const byNumber = new Map<number, T | StoredPart>(staged.map((part) => [part.partNumber, part]));
  for (const part of sentLive) byNumber.set(part.partNumber, part);
  return [...byNumber.values()].sort((a, b) => a.partNumber - b.partNumber);
}

/**
 * Parts wait on this server's disk (LOCAL's multipart over the staging folder), or were sent on unstaged as they
 * arrived, and their relay has most often written them on already (remote/part-relay.ts): completing then sends
 * the rest and renames the file into place. Without a relay, or when its file does not hold exactly these parts,
 * completing streams the staged parts, checked part by part, into one remote `put`; a part whose only copy was in
 * a relay that failed is missing then (InvalidPartError), for its sender to send again. The staged parts are
 * dropped only once the object is in place: a failed put leaves the upload whole, to complete again.
 */
export async function completeMultipart(context: RemoteContext, relays: PartRelays, key: string, uploadId: string, parts: CompletedPart[]): Promise<string> {
  remotePathOf(context, key);
  return locked(context.staging, uploadId, async () => {
    const dir = await uploadDir(context.staging, key, uploadId);
    const stored = new Map((await storedParts(dir)).map((part) => [part.partNumber, part]));
    const matched = matchParts(parts, withSentLive([...stored.values()], relays.sentLive(uploadId)));
    const relayed = await relays.take(uploadId)?.finish(matched);
    // A relayed file that cannot be renamed into place (its folder went meanwhile) is given up for the staged parts.
    const placed = relayed
      ? await placePartial(context, relayed, key).catch((error: unknown) => {
          log.warn({ err: error }, `${context.type} storage ${context.configId}: a relayed upload could not be renamed into place; sending its parts again`);
          return undefined;
        })
      : undefined;
    const head = placed ?? (await put(context, key, Readable.from(joinedParts(stagedCopiesOf(matched, stored), stored))));
    await rm(dir, { recursive: true, force: true });
    return head.etag;
  });
}

/** The matched parts, each of which must have a staged copy of the same bytes: one that was only relayed is missing. */
function stagedCopiesOf(matched: StoredPart[], stored: Map<number, StoredPart>): StoredPart[] {
  const missing = matched.filter((part) => stored.get(part.partNumber)?.etag !== part.etag).map((part) => part.partNumber);
  if (missing[0] !== undefined) throw new InvalidPartError(missing[0], 'missing', missing);
  return matched;
}
