import { describe, expect, it } from 'vitest';
import type { FileShare } from '../../contract/files';
import { MULTIPART_THRESHOLD } from '../../contract/parts';
import type { BatchFile, EngineEvent, FileShareUpload, JournalTask, ShareBatchEntry, ShareOptions, TransferError } from '../../contract/transfer';
import { Scheduler } from '../engine/scheduler';
import type { Journal } from '../journal/store';
import type { Transport } from '../transport/http';
import type { MultipartContext, MultipartJob } from './multipart-upload';
import type { PipelineContext } from './presigned-upload';
import { shareBatchUpload, type ShareBatchJob, type ShareTransport } from './share-batch-upload';

const api = { baseUrl: 'http://test', language: 'en-US' };
const options: ShareOptions = { slug: 'mine', password: 'pw', expires_in: 24, max_views: 3 };
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

const fileOf = (name: string, size: number) => ({ name, size, type: 'text/plain', lastModified: 1, slice: () => new Blob() }) as unknown as File;
const entries = (count: number, size = 10): BatchFile[] => Array.from({ length: count }, (_, index) => ({ file: fileOf(`f${index}.txt`, size), relativePath: `f${index}.txt` }));
const shareFor = (name: string) => ({ id: `id-${name}`, slug: `s-${name}`, filename: name }) as FileShare;

const noJournal: Journal = { append: async () => undefined, tasks: async () => new Map(), task: async () => undefined, forget: async () => undefined };
/** The transport fakes replace the pipelines that would use it. */
const unusedTransport: Transport = { send: () => Promise.reject(new Error('no network here')), fetch: () => Promise.reject(new Error('no network here')) };

/** A context as the engine gives one, on a shared scheduler, with the network's state in `network`. */
function contextFor(scheduler = new Scheduler({ perUpload: 3, global: 6 })) {
  const events: EngineEvent[] = [];
  const controller = new AbortController();
  const network = { online: true, back: () => undefined as void };
  const context: MultipartContext = {
    signal: controller.signal,
    emit: (event) => events.push(event),
    transport: unusedTransport,
    journal: noJournal,
    scheduler,
    online: () => network.online,
    untilOnline: () => new Promise<void>((resolve) => (network.back = resolve)),
    sleep: async () => undefined,
  };
  return { context, events, controller, network, scheduler };
}

/**
 * A transport that shares each file after a short while, refusing those in `refused` (as a presign the server
 * answered 400), and records what it was asked and how many files were in flight at once.
 */
function fakeTransport(refused = new Set<string>()) {
  const sent: string[] = [];
  const commands: FileShareUpload[] = [];
  const largeJobs: MultipartJob<FileShare>[] = [];
  let inFlight = 0;
  let peak = 0;
  const transport: ShareTransport = {
    async small(command: FileShareUpload, context: PipelineContext) {
      commands.push(command);
      sent.push(command.file.name);
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        await tick();
        if (refused.has(command.file.name)) throw { code: 'presign_failed', status: 400, serverMessage: 'Refused' } satisfies TransferError;
        context.emit({ type: 'engine.progress', taskId: command.taskId, progress: { loaded: command.file.size, total: command.file.size, percent: 100, speed: 0, secondsLeft: null } });
        return shareFor(command.file.name);
      } finally {
        inFlight--;
      }
    },
    async large(job: MultipartJob<FileShare>) {
      largeJobs.push(job);
      sent.push(job.describe.label);
      await tick();
      return shareFor(job.describe.label);
    },
  };
  return { transport, sent, commands, largeJobs, peak: () => peak };
}

function hooksFor(resumable: Record<string, JournalTask> = {}) {
  const recorded: ShareBatchEntry[] = [];
  const finished: string[] = [];
  return {
    recorded,
    finished,
    hooks: {
      shared: async (entry: ShareBatchEntry) => void recorded.push(entry),
      resumeOf: async (taskId: string) => resumable[taskId],
      finishedLarge: async (taskId: string) => void finished.push(taskId),
    },
  };
}

const job = (files: BatchFile[], extra: Partial<ShareBatchJob> = {}): ShareBatchJob => ({ taskId: 'b1', api, files, options, storageConfigId: 'cfg', done: new Set(), shares: [], ...extra });
const lastCounts = (events: EngineEvent[]) => events.filter((event) => event.type === 'engine.item').at(-1)?.counts;
const lastProgress = (events: EngineEvent[]) => events.filter((event) => event.type === 'engine.progress').at(-1)?.progress;

describe('shareBatchUpload', () => {
  it('shares every file, three at a time, with the batch’s options and storage and no custom slug; one refused file fails alone', async () => {
    const files = entries(7);
    const fake = fakeTransport(new Set(['f3.txt']));
    const { context, events } = contextFor();
    const { hooks, recorded } = hooksFor();
    const result = await shareBatchUpload(job(files), context, hooks, fake.transport);

    expect(fake.sent.sort()).toEqual(files.map((entry) => entry.file.name).sort());
    expect(fake.peak()).toBe(3);
    expect(fake.commands.every((command) => command.storageConfigId === 'cfg' && command.options.slug === undefined && command.options.password === 'pw' && command.options.max_views === 3)).toBe(true);
    expect(fake.commands.every((command) => command.mimetype === 'text/plain')).toBe(true);

    expect(result.failed).toEqual([{ path: 'f3.txt', error: { code: 'presign_failed', status: 400, serverMessage: 'Refused' } }]);
    expect(result.succeeded.sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f4.txt', 'f5.txt', 'f6.txt']);
    // The shares in the batch's order, each recorded for the journal before it counted.
    expect(result.shares.map((entry) => entry.path)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f4.txt', 'f5.txt', 'f6.txt']);
    expect(result.shares[0]?.share.slug).toBe('s-f0.txt');
    expect(recorded.map((entry) => entry.path).sort()).toEqual(result.succeeded.sort());
    expect(lastCounts(events)).toEqual({ success: 6, skipped: 0, failed: 1 });
    expect(lastProgress(events)).toMatchObject({ loaded: 70, total: 70, percent: 100 });
  });

  it('a retry sends only the files not shared yet, and answers every share of the batch', async () => {
    const files = entries(5);
    const done = new Set(['f0.txt', 'f1.txt', 'f3.txt', 'f4.txt']);
    const shares = [...done].map((path) => ({ path, share: shareFor(path) }));
    const fake = fakeTransport();
    const { context, events } = contextFor();
    const result = await shareBatchUpload(job(files, { done, shares }), context, hooksFor().hooks, fake.transport);

    expect(fake.sent).toEqual(['f2.txt']);
    expect(result.failed).toEqual([]);
    expect(result.shares.map((entry) => entry.path)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
    expect(lastCounts(events)).toEqual({ success: 5, skipped: 0, failed: 0 });
  });

  it('files not picked again after a reload fail as such, the rest go on', async () => {
    const files = entries(2);
    const fake = fakeTransport();
    const { context } = contextFor();
    const result = await shareBatchUpload(job(files, { missing: ['gone.txt'] }), context, hooksFor().hooks, fake.transport);
    expect(result.failed).toEqual([{ path: 'gone.txt', error: { code: 'file_mismatch' } }]);
    expect(result.shares).toHaveLength(2);
  });

  it('sends a large file in parts as its own journal record, resumed from the journal, and forgets it once shared', async () => {
    const files = [{ file: fileOf('big.bin', MULTIPART_THRESHOLD + 1), relativePath: 'big.bin' }, ...entries(1)];
    const fake = fakeTransport();
    const { context, events } = contextFor();
    const earlier = { taskId: 'b1:big.bin', uploadId: 'u1' } as JournalTask;
    const { hooks, finished } = hooksFor({ 'b1:big.bin': earlier });
    const result = await shareBatchUpload(job(files), context, hooks, fake.transport);

    expect(fake.largeJobs).toHaveLength(1);
    const [large] = fake.largeJobs;
    expect(large).toMatchObject({ taskId: 'b1:big.bin', resume: earlier, describe: { kind: 'multipart', batchOf: 'b1', storageConfigId: 'cfg', options: { slug: undefined, password: 'pw' } } });
    expect(fake.commands.map((command) => command.file.name)).toEqual(['f0.txt']);
    expect(finished).toEqual(['b1:big.bin']);
    expect(result.shares.map((entry) => entry.path)).toEqual(['big.bin', 'f0.txt']);
    expect(lastProgress(events)).toMatchObject({ loaded: MULTIPART_THRESHOLD + 11, percent: 100 });
  });

  it('offline, a file waits for the network (saying so) and is sent again once it is back', async () => {
    const files = entries(1);
    const { context, events, network } = contextFor();
    let tries = 0;
    const transport: ShareTransport = {
      async small(command) {
        if (tries++ === 0) {
          network.online = false;
          throw { code: 'network' } satisfies TransferError;
        }
        return shareFor(command.file.name);
      },
      large: async () => Promise.reject(new Error('no large file here')),
    };
    const running = shareBatchUpload(job(files), context, hooksFor().hooks, transport);
    await expect.poll(() => events.some((event) => event.type === 'engine.stage' && event.stage === 'waitingForNetwork')).toBe(true);
    expect(tries).toBe(1);
    network.online = true;
    network.back();
    const result = await running;
    expect(tries).toBe(2);
    expect(result.shares).toHaveLength(1);
    const stages = events.flatMap((event) => (event.type === 'engine.stage' ? [event.stage] : []));
    expect(stages).toEqual(['uploading', 'waitingForNetwork', 'uploading']);
  });

  it('holds a slot of the shared scheduler for each small file it sends', async () => {
    const scheduler = new Scheduler({ perUpload: 6, global: 2 });
    const files = entries(6);
    const { context } = contextFor(scheduler);
    let peakSlots = 0;
    const transport: ShareTransport = {
      async small(command) {
        peakSlots = Math.max(peakSlots, scheduler.active);
        expect(scheduler.active).toBeGreaterThan(0);
        await tick();
        return shareFor(command.file.name);
      },
      large: async () => Promise.reject(new Error('no large file here')),
    };
    await shareBatchUpload(job(files), context, hooksFor().hooks, transport);
    // Three lanes, but the scheduler's global limit of two is what goes at once.
    expect(peakSlots).toBe(2);
    expect(scheduler.active).toBe(0);
  });

  it('a cancel stops the batch as cancelled, with nothing more sent', async () => {
    const files = entries(9);
    const fake = fakeTransport();
    const { context, controller } = contextFor();
    const running = shareBatchUpload(job(files), context, hooksFor().hooks, fake.transport);
    await tick();
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    const sentWhenCancelled = fake.sent.length;
    await tick();
    expect(fake.sent.length).toBe(sentWhenCancelled);
    expect(sentWhenCancelled).toBeLessThan(9);
  });
});
