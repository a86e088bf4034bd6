import type { Readable } from 'node:stream';
import type { AppDeps } from '../../context';
import { counted } from '../transfers/hooks';
import { accessRecorderOf, type Visitor } from './recorder';

/**
 * A file share's bytes on their way to a visitor, put in its access log once the stream is over: the bytes that
 * went, and whether it ended whole or the visitor went away first (or storage broke off).
 */
export function loggedDownload(deps: Pick<AppDeps, 'db' | 'now'>, fileId: string, visitor: Visitor) {
  const at = deps.now();
  return (body: Readable): Readable => {
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
  };
}
