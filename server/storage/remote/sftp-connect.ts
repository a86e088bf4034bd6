import { createHash, timingSafeEqual } from 'node:crypto';
import type { ConnectConfig, SFTPWrapper } from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import type { AddressOf } from './remote-fs';

export interface SftpFileSystemOptions {
  host: string;
  port?: number;
  username: string;
  password?: string;
  /** An OpenSSH or PEM private key, as its file holds it. */
  privateKey?: string;
  passphrase?: string;
  /** The host key's fingerprint as `ssh-keygen -l` prints it: `SHA256:<base64 without padding>`. */
  hostKeySha256?: string;
  maxConnections?: number;
  timeoutMs?: number;
  addressOf?: AddressOf;
}

/** Why a connection failed, as codes `failureReasonOf` (server/storage/reason.ts) knows. */
export type SftpFailureCode = 'SSH_AUTH_FAILED' | 'SSH_KEY_UNREADABLE' | 'SSH_HOST_KEY_MISMATCH' | 'ETIMEDOUT';

export class SftpConnectError extends Error {
  constructor(
    message: string,
    readonly code: SftpFailureCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SftpConnectError';
  }
}

/** A live SSH connection with its SFTP session. */
export interface SftpConnection {
  client: SftpClient;
  /** ssh2's own session, for what the client library lacks: listings with attributes, pipelined reads, streams. */
  sftp: SFTPWrapper;
  /**
   * Calls `listener` once the connection closes or fails (at once if it has); answers a function that stops
   * listening. ssh2 leaves requests sent after the close unanswered, so a streamed read or write must stop on this
   * itself, failing with `closedDuring`.
   */
  onGone(listener: () => void): () => void;
  end(): Promise<void>;
}

/** What a streamed read or write fails with when its connection ends under it: ECONNRESET, as a socket's own. */
export const closedDuring = (work: 'read' | 'write') => Object.assign(new Error(`The SFTP connection closed during the ${work}`), { code: 'ECONNRESET' });

/**
 * A promise that fails with `closedDuring(work)` once the connection ends (never unhandled), to race each wait of a
 * streamed read or write against, and the function that stops listening.
 */
export function connectionEnd(onGone: SftpConnection['onGone'], work: 'read' | 'write'): { gone: Promise<never>; stopListening: () => void } {
  let stopListening = () => {};
  const gone = new Promise<never>((_resolve, reject) => {
    stopListening = onGone(() => reject(closedDuring(work)));
  });
  gone.catch(() => undefined);
  return { gone, stopListening };
}

/** `SHA256:<base64 without padding>` of a host key blob, as `ssh-keygen -l` prints it. */
const hostKeyFingerprint = (key: Buffer) => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

function sameFingerprint(actual: string, pinned: string) {
  const a = Buffer.from(actual);
  const b = Buffer.from(pinned.trim().replace(/=+$/, ''));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** How long an idle connection waits between keepalives; three missed answers end it. */
const keepaliveOf = (timeoutMs: number) => Math.max(1000, Math.floor(timeoutMs / 3));

/**
 * Opens one connection. A host key other than the pinned one ends the handshake before any credential is sent;
 * authentication and handshake failures reject with a code the storage layer turns into a reason for clients.
 */
export async function openSftpConnection(options: SftpFileSystemOptions, onGone: () => void): Promise<SftpConnection> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let hostKeyRefused = false;
  let gone = false;
  const listeners = new Set<() => void>([onGone]);
  const once = () => {
    if (gone) return;
    gone = true;
    for (const listener of listeners) listener();
    listeners.clear();
  };
  // The library's default callbacks print to the console; the pool only needs to know the connection is gone.
  const client = new SftpClient('clipstash', { error: once, end: once, close: once });
  const pinned = options.hostKeySha256;
  const config: ConnectConfig = {
    // The pinned host key, not the name, says who answers; the address is checked at each connect.
    host: options.addressOf ? await options.addressOf(options.host) : options.host,
    port: options.port ?? 22,
    username: options.username,
    password: options.password,
    privateKey: options.privateKey,
    passphrase: options.passphrase,
    readyTimeout: timeoutMs,
    keepaliveInterval: keepaliveOf(timeoutMs),
    keepaliveCountMax: 3,
    ...(pinned && {
      hostVerifier: (key: Buffer) => {
        hostKeyRefused = !sameFingerprint(hostKeyFingerprint(key), pinned);
        return !hostKeyRefused;
      },
    }),
  };
  let sftp: SFTPWrapper;
  try {
    sftp = await client.connect(config);
  } catch (error) {
    once();
    await client.end().catch(() => undefined);
    throw connectFailure(error, hostKeyRefused);
  }
  const onConnectionGone = (listener: () => void) => {
    if (gone) listener();
    else listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return { client, sftp, onGone: onConnectionGone, end: () => client.end().then(() => undefined) };
}

function connectFailure(error: unknown, hostKeyRefused: boolean): unknown {
  if (hostKeyRefused) {
    return new SftpConnectError("The server's host key does not match the pinned SHA-256 fingerprint", 'SSH_HOST_KEY_MISMATCH', { cause: error });
  }
  const message = error instanceof Error ? error.message : '';
  if (/authentication methods failed/i.test(message)) {
    return new SftpConnectError('The server refused the username, password or key', 'SSH_AUTH_FAILED', { cause: error });
  }
  if (/privateKey|passphrase/i.test(message)) {
    return new SftpConnectError('The private key could not be read (is its passphrase right?)', 'SSH_KEY_UNREADABLE', { cause: error });
  }
  if (/timed out/i.test(message)) return new SftpConnectError('The SSH server did not answer in time', 'ETIMEDOUT', { cause: error });
  return error;
}
