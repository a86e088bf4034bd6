import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { StoredPart } from '../driver';
import { crc32Digest } from '../local/digest';
import { joinedParts, stagedBytes } from '../local/multipart';
import { storedParts, uploadDirOf } from '../local/uploads';
import type { RemoteContext } from './context';
import { partialPathOf } from './objects';
import { log } from '../../observability/log';

/** Relays at once per storage: each holds one of its connections until its write ends. */
const RELAYS_PER_STORAGE = 2;
/**
 * A relay waiting this long for its next part gives up (a slow line, or the tab went away): completing then sends
 * the whole file from the staged parts, after the parts it sent on are sent again. Below the drivers' 30 s without
 * traffic, after which a WebDAV or FTP write fails anyway.
 */
const IDLE_MS = 20_000;
/** Uploads remembered as relayed once, so that none is relayed again from part 1 (after a failure, an abort). */
const TRIED_REMEMBERED = 10_000;
/** Parts of one upload that may wait for their turn unread; one more is staged instead. */
const LIVE_PARTS_WAITING = 4;
/**
 * A part waits this long for its turn, its body unread, before it is staged instead: long enough for the parts
 * before it to pass on a slow line, short of the worker's own timeout for a part.
 */
const TURN_WAIT_MS = 15_000;
/**
 * How long a part waits when one before it has not arrived at all: parts sent at once arrive in any order, but a
 * client sending one at a time out of order must not wait for each.
 */
const GAP_WAIT_MS = 1_000;

/**
 * The largest part a relay takes as it arrives: it holds two in memory (one written, the next read). Parts are 5 MiB
 * but for files over 50 GB, whose parts grow to keep within 10,000; larger ones are staged.
 */
export const LIVE_PART_MOST_BYTES = 64 * 1024 * 1024;
/** Waits before trying again to remove the partial file of a relay that failed. */
const PARTIAL_REMOVAL_RETRIES_MS = [1_000, 4_000, 15_000];

/** Bytes of a live part in one write: a socket write per network read of the request costs far more. */
const WRITE_CHUNK = 1024 * 1024;

type Sent = Pick<StoredPart, 'partNumber' | 'etag'>;

/**
 * A part whose sender keeps its bytes (`resendable`), offered to the relay as it arrives: when its turn comes its body
 * is read into memory and sent on, never staged. One that waits too long is given back, unread, to be staged.
 */
interface LivePart {
  partNumber: number;
  body: Readable;
  turnWait: NodeJS.Timeout;
  /** Settles the offer: the part as sent, or undefined when it is given back. */
  answer: (part: StoredPart | undefined) => void;
  fail: (error: Error) => void;
  /** Its whole body once read (undefined when it was cut off): read from the moment it is taken. */
  whole?: Promise<WholePart | undefined>;
}

/** A live part's body, read into memory, and its CRC-32. */
interface WholePart {
  bytes: Buffer;
  etag: string;
}

const samePart = (a: Sent | undefined, b: Sent | undefined) => a !== undefined && b !== undefined && a.partNumber === b.partNumber && a.etag === b.etag;

/**
 * One upload's parts written on to the remote storage while the others still arrive: part 1 as soon as it is
 * there, then each next one, into a hidden partial file beside the target. A part offered as it arrives (`offer`) is
 * read from its request and sent; a staged one is read back from its file, checked against its ETag when an earlier
 * process staged it, as completing checks it.
 */
class Relay {
  /** The newest ETag stored for each part number. */
  private readonly known = new Map<number, string>();
  /** The parts this process stored while the relay ran, by number: the ETag each was hashed to on its way in. */
  private readonly hashedHere = new Map<number, string>();
  /** Parts 1, 2, 3, … as sent: `sent[n - 1]` is part n. */
  private readonly sent: Sent[] = [];
  /** Parts offered as they arrive, by number, until the relay takes them or gives them back. */
  private readonly waiting = new Map<number, LivePart>();
  /** Parts sent on as they arrived: the relay's file is their only copy. */
  readonly sentLive = new Map<number, StoredPart>();
  /** Numbers of the live parts being read or sent: none may be offered again until it is through. */
  private readonly taken = new Set<number>();
  /** The part after the one being sent, read ahead while that one is written. */
  private readAhead?: LivePart;
  /** The number of the live part being written; 0 when none is. */
  private sending = 0;
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
    // Stored again while its live copy, now the older one, is read or sent.
    if (this.taken.has(part.partNumber)) this.stop(new Error(`part ${part.partNumber} stored again while it was sent`));
    this.wake();
  }

  /**
   * Offers a part as it arrives, for its body to be sent on once the parts before it are: answers the part once its
   * last byte is handed to the remote write, or undefined, its body unread, when the relay cannot take it (a number
   * sent already, too many waiting, its turn long in coming, the relay stopped): the caller stages it then. A body
   * cut off fails its offer alone: it is read whole before any of it is sent, and its sender sends it again.
   */
  offer(partNumber: number, body: Readable): Promise<StoredPart | undefined> {
    const passed = partNumber <= this.sent.length || this.taken.has(partNumber);
    if (this.stopped || this.final || passed || this.waiting.has(partNumber) || this.waiting.size >= LIVE_PARTS_WAITING) {
      return Promise.resolve(undefined);
    }
    const wait = this.gapBefore(partNumber) ? GAP_WAIT_MS : TURN_WAIT_MS;
    return new Promise((answer, fail) => {
      const part: LivePart = { partNumber, body, answer, fail, turnWait: setTimeout(() => this.giveBack(part), wait) };
      part.turnWait.unref();
      this.waiting.set(partNumber, part);
      this.readNextAhead();
      this.wake();
    });
  }

  /** Whether a part before `partNumber`, not yet sent, is neither waiting, read nor staged. */
  private gapBefore(partNumber: number): boolean {
    for (let before = this.sent.length + 1; before < partNumber; before += 1) {
      if (!this.waiting.has(before) && !this.taken.has(before) && !this.known.has(before)) return true;
    }
    return false;
  }

  /** Takes a waiting part and starts reading its body. */
  private take(part: LivePart): LivePart {
    clearTimeout(part.turnWait);
    this.waiting.delete(part.partNumber);
    this.taken.add(part.partNumber);
    part.whole = this.readWhole(part);
    return part;
  }

  /** While a live part is written, the next one, if it waits, is read from its sender: both lines stay busy. */
  private readNextAhead() {
    const next = this.sending && !this.readAhead ? this.waiting.get(this.sending + 1) : undefined;
    if (next) this.readAhead = this.take(next);
  }

  /** A live part's body in memory, checksummed; undefined, its offer failed, when the body is cut off. */
  private async readWhole(part: LivePart): Promise<WholePart | undefined> {
    const digest = crc32Digest();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of part.body as AsyncIterable<Buffer>) {
        digest.update(chunk);
        chunks.push(chunk);
        size += chunk.length;
      }
    } catch (error) {
      this.taken.delete(part.partNumber);
      part.fail(error instanceof Error ? error : new Error(String(error)));
      this.wake();
      return undefined;
    }
    return { bytes: Buffer.concat(chunks, size), etag: digest.hex() };
  }

  /** Hands a part that still waits back to its sender, unread; one taken meanwhile is the relay's. */
  private giveBack(part: LivePart) {
    if (this.waiting.get(part.partNumber) !== part) return;
    clearTimeout(part.turnWait);
    this.waiting.delete(part.partNumber);
    part.answer(undefined);
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
    for (const part of [...this.waiting.values()]) this.giveBack(part);
    if (this.readAhead) {
      this.readAhead.fail(reason);
      this.readAhead.body.destroy();
      this.readAhead = undefined;
    }
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
    // Little read ahead: a live part is answered once its bytes are handed to the write, not long before they leave.
    const body = Readable.from(this.bytes(), { highWaterMark: 2 });
    this.body = body;
    try {
      await this.context.fs.write(this.partial, body);
    } catch (error) {
      // Parts waiting for their turn are staged at once rather than when their wait ends.
      this.stop(error instanceof Error ? error : new Error(String(error)));
      await this.removePartial();
      throw error;
    }
    if (this.stopped) {
      await this.removePartial();
      throw this.stopped;
    }
  }

  /**
   * Removes the partial file; when the server cannot be reached (the cut that failed the relay, a restart), tries
   * again later in the background, so that no hidden half file stays behind once it is back.
   */
  private async removePartial() {
    const partial = this.partial;
    if (!partial) return;
    const remove = () => this.context.fs.remove(partial).then(() => true, () => false);
    if (await remove()) return;
    void (async () => {
      for (const wait of PARTIAL_REMOVAL_RETRIES_MS) {
        await delay(wait, undefined, { ref: false });
        if (await remove()) return;
      }
      log.warn(`${this.context.type} storage ${this.context.configId}: a relayed upload's partial file ${partial} could not be removed`);
    })();
  }

  private async *bytes(): AsyncGenerator<Buffer> {
    try {
      for (let partNumber = 1; ; partNumber += 1) {
        const next = await this.nextSource(partNumber);
        if (next === undefined) return;
        if (typeof next !== 'string') {
          const whole = await next.whole;
          // Cut off before its end: nothing of it was sent, and its sender sends it again.
          if (!whole) partNumber -= 1;
          else yield* this.sendLive(next, whole);
          continue;
        }
        const etag = next;
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

  /** A live part read whole, written in slices; the part is answered once its last byte is taken. */
  private async *sendLive(part: LivePart, whole: WholePart): AsyncGenerator<Buffer> {
    const { bytes, etag } = whole;
    let sent: StoredPart | undefined;
    this.sending = part.partNumber;
    this.readNextAhead();
    try {
      for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK) yield bytes.subarray(offset, offset + WRITE_CHUNK);
      sent = { partNumber: part.partNumber, etag, size: bytes.length };
      this.sent.push(sent);
      this.sentLive.set(part.partNumber, sent);
      this.known.set(part.partNumber, etag);
      part.answer(sent);
    } finally {
      this.sending = 0;
      this.taken.delete(part.partNumber);
      // The relay stopped while it was written: the remote file can no longer be the upload's.
      if (!sent) part.fail(this.stopped ?? new Error('relay stopped'));
    }
  }

  /**
   * What part `partNumber` is sent from once it is there: a live part offered for it (the newest of its bytes), else
   * the ETag of its staged file; undefined once the completed upload has no more parts.
   */
  private async nextSource(partNumber: number): Promise<LivePart | string | undefined> {
    for (;;) {
      if (this.stopped) throw this.stopped;
      if (this.final) {
        const wanted = this.final[partNumber - 1];
        if (!wanted) return undefined;
        // Numbers with a gap cannot be relayed in order: completing sends them.
        if (wanted.partNumber !== partNumber) throw new Error('parts not numbered 1, 2, 3, …');
        return wanted.etag;
      }
      const ahead = this.readAhead;
      if (ahead?.partNumber === partNumber) {
        this.readAhead = undefined;
        return ahead;
      }
      const live = this.waiting.get(partNumber);
      if (live) return this.take(live);
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
 * relay while it runs) is sent whole from its staged parts when it completes; parts it sent on as they arrived,
 * unstaged, are then missing, and their senders send them again.
 */
export interface PartRelays {
  /** Part `part` of `uploadId` (an upload of `key`) was stored: passes it to the upload's relay, or starts one. */
  stored(key: string, uploadId: string, part: Sent): void;
  /**
   * Offers a part as it arrives to the upload's relay (started for it when none runs): answers it once sent on, or
   * undefined, its body unread, when it is to be staged instead (see Relay.offer).
   */
  offer(key: string, uploadId: string, partNumber: number, body: Readable): Promise<StoredPart | undefined>;
  /** The parts the upload's running relay sent on as they arrived: its file holds their only copy. */
  sentLive(uploadId: string): StoredPart[];
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

  /** The upload's running relay, or a new one when a relay may start for it. */
  const relayOf = (key: string, uploadId: string): Relay | undefined => {
    const relay = running.get(uploadId);
    if (relay) return relay;
    if (closed || tried.has(uploadId) || writing >= RELAYS_PER_STORAGE) return undefined;
    remember(uploadId);
    const started = new Relay(context, key, uploadDirOf(context.staging, uploadId));
    running.set(uploadId, started);
    writing += 1;
    started.written
      .catch(() => {
        if (running.get(uploadId) === started) running.delete(uploadId);
      })
      .finally(() => (writing -= 1));
    return started;
  };

  return {
    stored(key, uploadId, part) {
      relayOf(key, uploadId)?.partStored(part);
    },
    async offer(key, uploadId, partNumber, body) {
      const relay = relayOf(key, uploadId);
      return relay?.key === key ? relay.offer(partNumber, body) : undefined;
    },
    sentLive: (uploadId) => [...(running.get(uploadId)?.sentLive.values() ?? [])],
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
