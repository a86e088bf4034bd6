import * as v from 'valibot';
import { fromCallback } from 'xstate';
import { liveEventSchema } from '../../../../contract/jobs';
import type { LiveFeedEvent } from '../../../../machines/live-feed.machine';
import { liveStreamUrl } from '../../../lib/api/tasks';

const EVENT_TYPES = ['snapshot', 'job', 'transfer'] as const;

/**
 * The feed machine's `stream`: an `EventSource` on a fresh ticket. On any error the source is closed and the machine
 * decides when to come back (its own back-off, with a new ticket: the old one may have expired).
 */
export const eventSourceStream = (path: Parameters<typeof liveStreamUrl>[0]) =>
  fromCallback<LiveFeedEvent>(({ sendBack }) => {
    let source: EventSource | undefined;
    let stopped = false;
    const fail = () => {
      source?.close();
      if (!stopped) sendBack({ type: 'feed.failed' });
    };
    liveStreamUrl(path).then((url) => {
      if (stopped) return;
      source = new EventSource(url);
      for (const type of EVENT_TYPES) {
        source.addEventListener(type, (message) => {
          const parsed = v.safeParse(liveEventSchema, JSON.parse((message as MessageEvent<string>).data));
          if (parsed.success) sendBack({ type: 'feed.event', event: parsed.output });
        });
      }
      source.onerror = fail;
    }, fail);
    return () => {
      stopped = true;
      source?.close();
    };
  });

/** The feed machine's `network`: the browser's online and offline events. */
export const browserNetwork = fromCallback<LiveFeedEvent>(({ sendBack }) => {
  const offline = () => sendBack({ type: 'feed.offline' });
  const online = () => sendBack({ type: 'feed.online' });
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);
  if (!navigator.onLine) offline();
  return () => {
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
  };
});
