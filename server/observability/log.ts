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
/** Lines gathered before they are handed over as one block (about 20 KiB of request lines). */
const LINES_PER_BLOCK = 100;

/**
 * Standard output, written in blocks rather than a system call per line (a request line is on every read, and one
 * write each cost a paste read about a quarter of its speed): a line waits at most LOG_FLUSH_MS, and what is
 * gathered is written out when the process exits, however it exits. Lines are gathered here and joined once per
 * block: sonic-boom measures the whole string it holds again for every line it is given, which cost each request
 * line a few microseconds more as the block grew.
 */
function bufferedStdout(): DestinationStream & { flush(done?: (error?: Error) => void): void } {
  const stream = pino.destination({ dest: 1, sync: false });
  let lines: string[] = [];
  const handOver = () => {
    if (lines.length === 0) return;
    stream.write(lines.join(''));
    lines = [];
  };
  setInterval(handOver, LOG_FLUSH_MS).unref();
  process.once('exit', () => {
    handOver();
    try {
      stream.flushSync();
    } catch {
      // A write still in flight: pino's own exit handler writes what is left.
    }
  });
  return {
    write(line: string) {
      lines.push(line);
      if (lines.length >= LINES_PER_BLOCK) handOver();
    },
    flush(done) {
      handOver();
      stream.flush(done);
    },
  };
}

/**
 * pino's `isoTime`, made once per millisecond: a burst of requests within one shares the text, and formatting a date
 * cost a request line more than the rest of it did.
 */
function isoTimeOncePerMs(): () => string {
  let formattedAt = -1;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = `,"time":"${new Date(now).toISOString()}"`;
    }
    return formatted;
  };
}

/**
 * A JSON-lines logger, written from this thread (bufferedStdout): the server is bundled (scripts/build-server.mjs),
 * where pino's worker transports cannot load their files.
 */
export function createLogger(level: LogLevel, destination: DestinationStream = bufferedStdout()): Logger {
  return pino(
    {
      level,
      timestamp: isoTimeOncePerMs(),
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

/** The fields of a request's line (server/observability/request-log.ts). */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

type LoggerInternals = Record<symbol, unknown> & {
  [pino.symbols.streamSym]: DestinationStream;
  [pino.symbols.timeSym]: () => string;
  [pino.symbols.chindingsSym]: string;
};

/**
 * Writes the request line as `logger.info(line, 'request')` would, to the same destination with the same time and
 * bindings, without pino's general path: serializers and redaction over a known object of five plain fields cost
 * a paste read a twentieth of its time.
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  if (!logger.isLevelEnabled('info')) return;
  const internals = logger as unknown as LoggerInternals;
  const { reqId, method, route, status, ms } = line;
  internals[pino.symbols.streamSym].write(
    `{"level":${logger.levels.values.info}${internals[pino.symbols.timeSym]()}${internals[pino.symbols.chindingsSym]},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status},"ms":${ms},"msg":"request"}\n`,
  );
}
