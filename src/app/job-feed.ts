import * as v from 'valibot';
import { liveEventSchema, type Job } from '../../contract/jobs';
import { openStream } from '../lib/api/client';
import { readEvents } from '../lib/api/event-stream';
import { getJob, jobsPath } from '../lib/api/jobs';

type Listener = (job: Job) => void;

/** Waits between reconnects: from 1 s, doubling up to 30 s; a stream that opened resets it. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The server's job events for this browser's tasks: one stream (`GET …/jobs/events`) while any task listens, opened
 * again after a drop. Each (re)connection's snapshot brings the listeners up to date; a job the snapshot leaves out
 * is asked for by itself, so that an end missed while disconnected is not missed for good.
 */
function createJobFeed() {
  const listeners = new Map<string, Set<Listener>>();
  let connection: AbortController | undefined;

  const deliver = (job: Job) => listeners.get(job.id)?.forEach((listener) => listener(job));

  async function catchUp(snapshot: Job[]) {
    snapshot.forEach(deliver);
    const seen = new Set(snapshot.map((job) => job.id));
    for (const id of listeners.keys()) if (!seen.has(id)) await getJob(id).then(deliver, () => undefined);
  }

  async function listen(signal: AbortSignal) {
    let wait = FIRST_RETRY_MS;
    while (!signal.aborted) {
      try {
        const body = await openStream(jobsPath('/events'), signal);
        wait = FIRST_RETRY_MS;
        for await (const { data } of readEvents(body)) {
          // Checked as every answer is: an event of another shape is passed over.
          const parsed = v.safeParse(liveEventSchema, JSON.parse(data));
          if (!parsed.success) continue;
          const event = parsed.output;
          if (event.type === 'snapshot') await catchUp(event.jobs);
          else if (event.type === 'job') deliver(event.job);
        }
      } catch {
        // A refused or dropped stream is opened again after a wait; a sign-out stops the tasks that listen.
      }
      await pause(wait, signal);
      wait = Math.min(wait * 2, LAST_RETRY_MS);
    }
  }

  return {
    /** Calls `listener` with each change of the job until the answer is called. */
    subscribe(jobId: string, listener: Listener): () => void {
      const set = listeners.get(jobId) ?? new Set();
      set.add(listener);
      listeners.set(jobId, set);
      if (!connection) {
        connection = new AbortController();
        void listen(connection.signal);
      }
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(jobId);
        if (listeners.size === 0) {
          connection?.abort();
          connection = undefined;
        }
      };
    },
  };
}

export const jobFeed = createJobFeed();
