import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './log-levels';

export type { Logger };

/**
 * Fields censored in a logged object: credentials, the request headers that carry them, and a share's content. The
 * request line logs none of them; this catches an object logged whole. Exact paths, no wildcards: pino compiles
 * them into plain property checks, which cost every line next to nothing.
 */
const REDACTED = ['password', 'token', 'secret', 'content', 'authorization', 'cookie'].flatMap((field) => [
  field,
  `headers.${field}`,
  `req.headers.${field}`,
  `res.headers.${field}`,
  `body.${field}`,
]).concat(['req.headers["x-api-key"]', 'res.headers["set-cookie"]', 'headers["set-cookie"]']);

/** Signed URLs and tokens in an error's text: logs keep the URL without them. */
const SECRET_QUERY = /([?&](?:X-Amz-[A-Za-z-]+|sig|signature|token|exp)=)[^&\s'"]+/gi;

/** `text` with the values of signing and token query parameters cut out. */
export const withoutSecrets = (text: string): string => text.replace(SECRET_QUERY, '$1…');

/** pino's error serializer, with secrets cut out of the message and stack (an error may quote a signed URL). */
function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  serialized.message = withoutSecrets(serialized.message);
  serialized.stack = withoutSecrets(serialized.stack);
  return serialized;
}

/** How long a line may wait in the buffer before it is written. */
const LOG_FLUSH_MS = 1000;

/**
 * Standard output, written in blocks of about 4 KiB rather than a system call per line (a request line is on every
 * read, and one write each cost a paste read about a quarter of its speed): a line waits at most LOG_FLUSH_MS, and
 * what is buffered is written out when the process exits, however it exits.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
  return stream;
}

/**
 * A JSON-lines logger, written from this thread (bufferedStdout): the server is bundled (scripts/build-server.mjs),
 * where pino's worker transports cannot load their files.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = bufferedStdout()): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED, censor: '[redacted]' },
      serializers: { err: serializeError },
    },
    destination,
  );
}

/**
 * The process's logger, for modules without a request (start-up, timers, drivers). index.ts sets its level from
 * LOG_LEVEL; under vitest it starts silent, so that tests print only their own output.
 */
export const log: Logger = createLogger(process.env.VITEST ? 'silent' : 'info');
