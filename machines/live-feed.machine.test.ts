import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import type { LiveTransfer } from '../contract/jobs';
import { backoffMs, liveFeedMachine, type LiveFeedEvent } from './live-feed.machine';

const transfer = (id: string, bytesDone: number, outcome: LiveTransfer['outcome'] = 'running'): LiveTransfer => ({
  id, kind: 'webdav-put', direction: 'in', who: { kind: 'admin', name: 'admin' }, name: `/local/${id}`, bytesDone, bytesTotal: 100, speed: null,
  partsInFlight: null, outcome, instance: 'a', startedAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-01T00:00:00.000Z', finishedAt: null,
});

function start() {
  const clock = new SimulatedClock();
  let stream: ((event: LiveFeedEvent) => void) | undefined;
  let network: ((event: LiveFeedEvent) => void) | undefined;
  let opened = 0;
  let closed = 0;
  const machine = liveFeedMachine.provide({
    actors: {
      stream: fromCallback<LiveFeedEvent>(({ sendBack }) => {
        opened++;
        stream = sendBack;
        return () => {
          closed++;
          stream = undefined;
        };
      }),
      network: fromCallback<LiveFeedEvent>(({ sendBack }) => {
        network = sendBack;
      }),
    },
  });
  const actor = createActor(machine, { clock }).start();
  return {
    actor,
    clock,
    stream: (event: LiveFeedEvent) => stream?.(event),
    network: (event: LiveFeedEvent) => network?.(event),
    opened: () => opened,
    closed: () => closed,
    tag: (tag: string) => actor.getSnapshot().hasTag(tag),
  };
}

describe('live feed machine', () => {
  it('connects, takes the snapshot, then applies each change by id', () => {
    const feed = start();
    expect(feed.tag('connecting')).toBe(true);
    feed.stream({ type: 'feed.event', event: { type: 'snapshot', jobs: [], transfers: [transfer('a', 10), transfer('b', 0)] } });
    expect(feed.tag('live')).toBe(true);
    feed.stream({ type: 'feed.event', event: { type: 'transfer', transfer: transfer('a', 100, 'completed') } });
    feed.stream({ type: 'feed.event', event: { type: 'transfer', transfer: transfer('c', 5) } });
    const { transfers } = feed.actor.getSnapshot().context;
    expect(Object.keys(transfers).sort()).toEqual(['a', 'b', 'c']);
    expect(transfers.a).toMatchObject({ bytesDone: 100, outcome: 'completed' });
  });

  it('reconnects with a growing back-off, and a new snapshot replaces what it had', () => {
    const feed = start();
    feed.stream({ type: 'feed.event', event: { type: 'snapshot', jobs: [], transfers: [transfer('gone', 1)] } });
    feed.stream({ type: 'feed.failed' });
    expect(feed.tag('reconnecting')).toBe(true);
    expect(feed.closed()).toBe(1);
    feed.clock.increment(backoffMs(1) - 1);
    expect(feed.opened()).toBe(1);
    feed.clock.increment(1);
    expect(feed.opened()).toBe(2);
    feed.stream({ type: 'feed.failed' });
    feed.clock.increment(backoffMs(1));
    expect(feed.opened()).toBe(2); // the second wait is longer
    feed.clock.increment(backoffMs(2) - backoffMs(1));
    expect(feed.opened()).toBe(3);
    feed.stream({ type: 'feed.event', event: { type: 'snapshot', jobs: [], transfers: [transfer('new', 0)] } });
    expect(Object.keys(feed.actor.getSnapshot().context.transfers)).toEqual(['new']);
    expect(feed.actor.getSnapshot().context.attempt).toBe(0);
    expect([1, 2, 3, 6, 20].map(backoffMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
  });

  it('closes the stream while offline and opens it again once back online', () => {
    const feed = start();
    feed.network({ type: 'feed.offline' });
    expect(feed.tag('offline')).toBe(true);
    expect(feed.closed()).toBe(1);
    feed.clock.increment(60_000);
    expect(feed.opened()).toBe(1);
    feed.network({ type: 'feed.online' });
    expect(feed.tag('connecting')).toBe(true);
    expect(feed.opened()).toBe(2);
  });
});
