import { assign, fromCallback, setup } from 'xstate';
import type { Job, LiveEvent, LiveTransfer } from '../contract/jobs';

export type LiveFeedEvent =
  | { type: 'feed.event'; event: LiveEvent }
  /** The stream broke or could not open (the source closed it). */
  | { type: 'feed.failed' }
  | { type: 'feed.offline' }
  | { type: 'feed.online' };

export interface LiveFeedContext {
  jobs: Record<string, Job>;
  transfers: Record<string, LiveTransfer>;
  /** Failed connections in a row; the back-off grows with it and a snapshot resets it. */
  attempt: number;
}

/** Waits before reconnecting: 1 s, 2 s, 4 s, … up to 30 s. */
export const backoffMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));

function apply(context: LiveFeedContext, event: LiveEvent): Partial<LiveFeedContext> {
  if (event.type === 'snapshot') {
    return {
      jobs: Object.fromEntries(event.jobs.map((job) => [job.id, job])),
      transfers: Object.fromEntries((event.transfers ?? []).map((transfer) => [transfer.id, transfer])),
      attempt: 0,
    };
  }
  if (event.type === 'job') return { jobs: { ...context.jobs, [event.job.id]: event.job } };
  return { transfers: { ...context.transfers, [event.transfer.id]: event.transfer } };
}

/**
 * A live event stream of the server (jobs or transfers): `stream` opens it and sends its events; the machine keeps
 * what the snapshot and the changes say, reconnects with back-off when the stream breaks, and waits while the
 * browser is offline (`network` reports it). A reconnection's snapshot replaces everything, so nothing missed in
 * between lingers. Tags: `connecting` until the first snapshot, `live`, `reconnecting`, `offline`.
 */
export const liveFeedMachine = setup({
  types: {
    context: {} as LiveFeedContext,
    events: {} as LiveFeedEvent,
  },
  actors: {
    stream: fromCallback<LiveFeedEvent>(() => () => {}),
    network: fromCallback<LiveFeedEvent>(() => () => {}),
  },
  delays: {
    backoff: ({ context }) => backoffMs(context.attempt),
  },
}).createMachine({
  id: 'liveFeed',
  context: { jobs: {}, transfers: {}, attempt: 0 },
  invoke: { src: 'network' },
  initial: 'connected',
  on: { 'feed.offline': '.offline' },
  states: {
    connected: {
      invoke: { src: 'stream' },
      initial: 'opening',
      on: {
        'feed.event': { target: '.live', actions: assign(({ context, event }) => apply(context, event.event)) },
        'feed.failed': { target: 'retrying', actions: assign({ attempt: ({ context }) => context.attempt + 1 }) },
      },
      states: {
        opening: { tags: ['connecting'] },
        live: { tags: ['live'] },
      },
    },
    retrying: {
      tags: ['reconnecting'],
      after: { backoff: 'connected' },
    },
    offline: {
      tags: ['offline'],
      on: { 'feed.online': 'connected' },
    },
  },
});

export type LiveFeedSnapshot = ReturnType<(typeof liveFeedMachine)['getInitialSnapshot']>;
