import * as v from 'valibot';
import { fromCallback } from 'xstate';
import { liveEventSchema } from '../../../../contract/jobs';
import type { LiveFeedEvent } from '../../../../machines/live-feed.machine';
import { openStream } from '../../../lib/api/client';
import { readEvents } from '../../../lib/api/event-stream';

/**
 * The feed machine's `stream`: the events of `path`, read with the user's credentials. A refusal, a drop or the
 * stream's end is a failure: the machine decides when to come back (its own back-off).
 */
export const authorizedStream = (path: string) =>
  fromCallback<LiveFeedEvent>(({ sendBack }) => {
    const connection = new AbortController();
    void (async () => {
      try {
        for await (const { data } of readEvents(await openStream(path, connection.signal))) {
          const parsed = v.safeParse(liveEventSchema, JSON.parse(data));
          if (parsed.success) sendBack({ type: 'feed.event', event: parsed.output });
        }
      } catch {
        // Told below, as a failure, unless the machine stopped the stream itself.
      }
      if (!connection.signal.aborted) sendBack({ type: 'feed.failed' });
    })();
    return () => connection.abort();
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
