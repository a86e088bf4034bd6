import type { Readable } from 'node:stream';
import type { AppDeps } from '../../context';
import { counted } from '../transfers/hooks';
import { accessRecorderOf, recordPeek, type Visitor } from './recorder';

/**
 * A file share's bytes on their way to a visitor, put in its access log once the stream is over: the bytes that
 * went, and whether it ended whole or the visitor went away first (or storage broke off).
 */
function loggedDownload(deps: Pick<AppDeps, 'db' | 'now'>, fileId: string, visitor: Visitor, body: Readable): Readable {
  const at = deps.now();
  let bytes = 0;
  let ended = false;
  const stream = counted(body, { progress: (chunk) => (bytes += chunk) });
  stream.on('end', () => {
    ended = true;
  });
  stream.on('close', () =>
    accessRecorderOf(deps).record({ share: { table: 'files', id: fileId }, visitor, kind: 'view', bytes, completed: ended, at }),
  );
  return stream;
}

/**
 * What a file's stream route (`/file-view`, `/file-download`) puts in the access log for `visitor` (undefined: the
 * owner, who is not logged): a peek at once; a download through `relay` (serveObject's), once its stream is over;
 * and, once `answered`, a GET that sent no stream (an empty file).
 */
export function streamAccessLog(deps: Pick<AppDeps, 'db' | 'now'>, fileId: string, visitor: Visitor | undefined, peek: boolean) {
  if (visitor && peek) recordPeek(deps, { table: 'files', id: fileId }, visitor);
  let relayed = false;
  return {
    relay(body: Readable): Readable {
      relayed = true;
      return visitor ? loggedDownload(deps, fileId, visitor, body) : body;
    },
    answered(response: Response): void {
      if (!visitor || peek || relayed || response.status >= 300) return;
      accessRecorderOf(deps).record({ share: { table: 'files', id: fileId }, visitor, kind: 'view', bytes: 0, completed: true, at: deps.now() });
    },
  };
}
