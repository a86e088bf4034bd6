import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { StoredPart } from '../driver';
import { joinedParts, stagedBytes } from '../local/multipart';
import { storedParts, uploadDirOf } from '../local/uploads';
import type { RemoteContext } from './context';
import { partialPathOf } from './objects';

/** Relays at once per storage: each holds one of its connections until its write ends. */
const RELAYS_PER_STORAGE = 2;
/**
 * A relay waiting this long for its next part gives up (a slow line, or the tab went away): completing then sends
 * the whole file. Below the drivers' 30 s without traffic, after which a WebDAV or FTP write fails anyway.
 */
const IDLE_MS = 20_000;
/** Uploads remembered as relayed once, so that none is relayed again from part 1 (after a failure, an abort). */
const TRIED_REMEMBERED = 10_000;

type Sent = Pick<StoredPart, 'partNumber' | 'etag'>;

const samePart = (a: Sent | undefined, b: Sent | undefined) => a !== undefined && b !== undefined && a.partNumber === b.partNumber && a.etag === b.etag;

/**
 * One upload's parts written on to the remote storage while the others still arrive: part 1 as soon as it is
 * stored, then each next one, into a hidden partial file beside the target. Each part is read back from its staged
 * file; one found staged by an earlier process is checked against its ETag, as completing checks it.
 */
class Relay {
  /** The newest ETag stored for each part number. */
  private readonly known = new Map<number, string>();
  /** The parts this process stored while the relay ran, by number: the ETag each was hashed to on its way in. */
  private readonly hashedHere = new Map<number, string>();
  /** Parts 1, 2, 3, … as sent: `sent[n - 1]` is part n. */
  private readonly sent: Sent[] = [];
  private final?: Sent[];
  private stopped?: Error;
  private body?: Readable;
  private wake = () => {};
  private partial?: string;
  readonly written: Promise<void>;

  constructor(
    private readonly context: RemoteContext,
    readonly key: string,
    private readonly dir: string,
  ) {
    this.written = this.run();
    this.written.catch(() => undefined);
  }

  partStored(part: Sent) {
    this.known.set(part.partNumber, part.etag);
    this.hashedHere.set(part.partNumber, part.etag);
    // A part sent already and now stored with other bytes: the file can no longer be the upload's.
    const sent = this.sent[part.partNumber - 1];
    if (sent && sent.etag !== part.etag) this.stop(new Error(`part ${part.partNumber} changed after it was sent`));
    this.wake();
  }

  /**
   * Sends what is left of `parts` (the completed upload's, in order) and ends the file. Answers the partial file's
   * path when it holds exactly those parts; else undefined (the partial removed), and completing sends them itself.
   */
  async finish(parts: Sent[]): Promise<string | undefined> {
    this.final = parts;
    if (!this.sentBegins(parts)) this.stop(new Error('the completed parts differ from those sent'));
    this.wake();
    try {
      await this.written;
    } catch {
      return undefined;
    }
    if (this.sent.length === parts.length && this.sentBegins(parts)) return this.partial;
    await this.removePartial();
    return undefined;
  }

  /** Whether the parts sent so far are the first of `parts`, in order. */
  private sentBegins(parts: Sent[]): boolean {
    return this.sent.every((sent, index) => samePart(sent, parts[index]));
  }

  /** Stops the relay, mid-part too, and removes its partial file. */
  async cancel(): Promise<void> {
    this.stop(new Error('relay cancelled'));
    await this.written.catch(() => undefined);
  }

  private stop(reason: Error) {
    this.stopped ??= reason;
    // The write fails with its body: a part half sent, or a server that takes no more bytes, does not hold it up.
    this.body?.destroy(reason);
    this.wake();
  }

  private async run(): Promise<void> {
    // Parts stored before this relay began (a resumed upload) count as well as the ones it hears of.
    for (const part of await storedParts(this.dir)) if (!this.known.has(part.partNumber)) this.known.set(part.partNumber, part.etag);
    if (this.stopped) throw this.stopped;
    this.partial = await partialPathOf(this.context, this.key);
    if (this.stopped) throw this.stopped;
    const body = Readable.from(this.bytes());
    this.body = body;
    try {
      await this.context.fs.write(this.partial, body);
    } catch (error) {
      body.destroy();
      await this.removePartial();
      throw error;
    }
    if (this.stopped) {
      await this.removePartial();
      throw this.stopped;
    }
  }

  private async removePartial() {
    if (this.partial) await this.context.fs.remove(this.partial).catch(() => undefined);
  }

  private async *bytes(): AsyncGenerator<Buffer> {
    try {
      for (let partNumber = 1; ; partNumber += 1) {
        const etag = await this.etagOf(partNumber);
        if (etag === undefined) return;
        const file = join(this.dir, `${partNumber}.${etag}.part`);
        // A part this process hashed as it arrived is sent unchecked: what the check guards against, a file renamed
        // into place unsynced and cut short by a power loss, would end this relay with the process. Parts found on
        // disk (stored before a restart) are checked, as completing checks them.
        yield* this.hashedHere.get(partNumber) === etag
          ? stagedBytes(file)
          : joinedParts([{ partNumber, etag, size: 0 }], new Map([[partNumber, { partNumber, etag, size: 0, file }]]));
        this.sent.push({ partNumber, etag });
        // Stored again while it was being sent.
        if (this.known.get(partNumber) !== etag && !this.final) throw new Error(`part ${partNumber} changed while it was sent`);
      }
    } catch (error) {
      // Kept, so that a write which ends quietly when its body fails is still seen to have failed.
      this.stopped ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** The ETag of part `partNumber` once it is stored; undefined once the completed upload has no more parts. */
  private async etagOf(partNumber: number): Promise<string | undefined> {
    for (;;) {
      if (this.stopped) throw this.stopped;
      if (this.final) {
        const wanted = this.final[partNumber - 1];
        if (!wanted) return undefined;
        // Numbers with a gap cannot be relayed in order: completing sends them.
        if (wanted.partNumber !== partNumber) throw new Error('parts not numbered 1, 2, 3, …');
        return wanted.etag;
      }
      const etag = this.known.get(partNumber);
      if (etag) return etag;
      await this.nextPart();
    }
  }

  private nextPart(): Promise<void> {
    return new Promise((resolve) => {
      const idle = setTimeout(() => this.stop(new Error('no part arrived in time')), IDLE_MS);
      idle.unref();
      this.wake = () => {
        clearTimeout(idle);
        this.wake = () => {};
        resolve();
      };
    });
  }
}

/**
 * The relays of one remote storage's multipart uploads. Completing a relayed upload only waits for its last parts
 * and renames the partial file into place, instead of sending the whole file after the last part arrived. An
 * upload the relay cannot follow (a failed write, a part changed after it was sent, parts out of reach, no free
 * relay while it runs) is sent whole from its staged parts when it completes.
 */
export interface PartRelays {
  /** Part `part` of `uploadId` (an upload of `key`) was stored: passes it to the upload's relay, or starts one. */
  stored(key: string, uploadId: string, part: Sent): void;
  /** The upload's relay, out of the registry (the caller finishes or cancels it); undefined when none runs. */
  take(uploadId: string): Relay | undefined;
  /** Stops the relay of `uploadId` if it uploads `key` (an abort), its partial file removed. */
  cancel(key: string, uploadId: string): Promise<void>;
  /** Stops every relay (the storage closes); none starts after. */
  close(): Promise<void>;
}

export function createPartRelays(context: RemoteContext): PartRelays {
  const running = new Map<string, Relay>();
  const tried = new Set<string>();
  /** Relays whose write has not ended, taken ones included: each holds a connection. */
  let writing = 0;
  let closed = false;

  const remember = (uploadId: string) => {
    tried.add(uploadId);
    if (tried.size > TRIED_REMEMBERED) tried.delete(tried.values().next().value as string);
  };
  const take = (uploadId: string) => {
    const relay = running.get(uploadId);
    running.delete(uploadId);
    return relay;
  };

  return {
    stored(key, uploadId, part) {
      const relay = running.get(uploadId);
      if (relay) return relay.partStored(part);
      if (closed || tried.has(uploadId) || writing >= RELAYS_PER_STORAGE) return;
      remember(uploadId);
      const started = new Relay(context, key, uploadDirOf(context.staging, uploadId));
      started.partStored(part);
      running.set(uploadId, started);
      writing += 1;
      started.written
        .catch(() => {
          if (running.get(uploadId) === started) running.delete(uploadId);
        })
        .finally(() => (writing -= 1));
    },
    take,
    async cancel(key, uploadId) {
      if (running.get(uploadId)?.key === key) await take(uploadId)?.cancel();
    },
    async close() {
      closed = true;
      const relays = [...running.values()];
      running.clear();
      await Promise.all(relays.map((relay) => relay.cancel()));
    },
  };
}
