import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './observability/log-levels';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  adminUsername: string;
  /** Undefined: a password is generated and printed once on first start. */
  adminPassword: string | undefined;
  /** 32-byte key as hex or base64; undefined: a key file is created in dataDir. */
  encryptionKey: string | undefined;
  publicUrl: string | undefined;
  allowPrivateUrls: boolean;
  /** Behind one reverse proxy: the client's address is the last one it adds to X-Forwarded-For. */
  trustProxy: boolean;
  adminTokenTtlHours: number;
  /** Folder of the built SPA; undefined when only the API is served (tests). */
  staticDir: string | undefined;
  /** PostgreSQL (`DATABASE_URL`), which several instances may share; undefined: SQLite under dataDir. Never log it. */
  databaseUrl: string | undefined;
  /** `SHARED_DATA_DIR=1`: every instance sees the same dataDir (a network folder), so LOCAL storage is shared too. */
  sharedDataDir: boolean;
  /**
   * `CORS_ORIGINS`: origins (`https://paste.example.com`) whose pages may call the API with credentials, for a
   * frontend served elsewhere; none by default. See server/middleware/cors.ts.
   */
  corsOrigins: string[];
  /**
   * `JOB_LEASE_SECONDS`: how long an instance holds a server job without renewing it; another instance takes a job
   * over this long after its instance died (server/features/jobs/). The mount indexer's claim on a folder lasts as
   * long (server/features/search/indexer.ts). Default 30.
   */
  jobLeaseSeconds: number;
  /** `LOG_LEVEL`: the least severe level written (server/observability/log.ts). Default info. */
  logLevel: LogLevel;
  /** `METRICS_TOKEN`: the bearer token `GET /metrics` asks for; undefined: no token opens it. Never log it. */
  metricsToken: string | undefined;
  /** `METRICS_PORT`: a port of its own serving only `/metrics`, without a token; undefined: none. */
  metricsPort: number | undefined;
  /** `SHUTDOWN_GRACE_MS`: how long a SIGTERM waits for requests in flight before closing their connections. */
  shutdownGraceMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Reads the environment once; every bad value is named with what was expected. */
export function readConfig(env: Env = process.env): ServerConfig {
  const problems: string[] = [];
  const port = integerIn(env, 'PORT', 8787, 0, 65535, problems);
  const ttl = integerIn(env, 'ADMIN_TOKEN_TTL_HOURS', 24, 1, 24 * 365, problems);
  const jobLeaseSeconds = integerIn(env, 'JOB_LEASE_SECONDS', 30, 2, 3600, problems);
  const publicUrl = env.PUBLIC_URL?.trim() || undefined;
  if (publicUrl && !isHttpUrl(publicUrl)) {
    problems.push(`PUBLIC_URL must be an http(s) URL such as https://paste.example.com (got "${publicUrl}")`);
  }
  const adminUsername = (env.ADMIN_USERNAME ?? 'admin').trim();
  if (!adminUsername || adminUsername.length > 50) {
    problems.push('ADMIN_USERNAME must be 1 to 50 characters');
  }
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 8) {
    problems.push('ADMIN_PASSWORD must be at least 8 characters');
  }
  const encryptionKey = env.ENCRYPTION_KEY?.trim() || undefined;
  if (encryptionKey !== undefined && decodeKey(encryptionKey) === undefined) {
    problems.push('ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or base64');
  }
  const allowPrivateUrls = flag(env, 'ALLOW_PRIVATE_URLS', problems);
  const trustProxy = flag(env, 'TRUST_PROXY', problems);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const sharedDataDir = flag(env, 'SHARED_DATA_DIR', problems);
  // The URL may hold a password: name the variable, never echo its value.
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^\s]+$/i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// URL (without it, SQLite under DATA_DIR is used)');
  }
  if (databaseUrl !== undefined && !sharedDataDir && encryptionKey === undefined) {
    problems.push(
      'ENCRYPTION_KEY must be set with DATABASE_URL: every instance on the database must seal and open secrets and ' +
        'sign links with the same key, and the key file in DATA_DIR is per machine (or set SHARED_DATA_DIR=1 when all ' +
        'instances share DATA_DIR)',
    );
  }
  const corsOrigins = originList(env, 'CORS_ORIGINS', problems);
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  // Named, never echoed: the value is a secret.
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const metricsPort = env.METRICS_PORT?.trim() ? integerIn(env, 'METRICS_PORT', 0, 1, 65535, problems) : undefined;
  const shutdownGraceMs = integerIn(env, 'SHUTDOWN_GRACE_MS', 30_000, 0, 3_600_000, problems);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR?.trim() || './data'),
    adminUsername,
    adminPassword,
    encryptionKey,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    allowPrivateUrls,
    trustProxy,
    adminTokenTtlHours: ttl,
    staticDir: resolve(env.STATIC_DIR?.trim() || './dist'),
    databaseUrl,
    sharedDataDir,
    corsOrigins,
    jobLeaseSeconds,
    logLevel,
    metricsToken,
    metricsPort,
    shutdownGraceMs,
  };
}

/**
 * A comma-separated list of origins, each kept as browsers send it in `Origin` (`https://Paste.example.com:443/`
 * → `https://paste.example.com`). Paths are refused, and so is `*`: answers carry credentials, which browsers never
 * accept together with any origin.
 */
function originList(env: Env, name: string, problems: string[]): string[] {
  const origins = new Set<string>();
  for (const entry of (env[name] ?? '').split(',')) {
    const text = entry.trim();
    if (!text) continue;
    const url = isHttpUrl(text) ? new URL(text) : undefined;
    if (!url || url.pathname !== '/' || url.search || url.hash || url.username || url.password || /[?#]/.test(text)) {
      problems.push(`${name} must list origins such as https://paste.example.com, without paths or "*" (got "${text}")`);
    } else origins.add(url.origin);
  }
  return [...origins];
}

/** An on/off variable: 1/true or 0/false (any case), off when unset. */
function flag(env: Env, name: string, problems: string[]): boolean {
  const raw = (env[name] ?? '0').trim().toLowerCase();
  if (!['0', '1', 'true', 'false', ''].includes(raw)) problems.push(`${name} must be 1/true or 0/false`);
  return raw === '1' || raw === 'true';
}

function integerIn(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  // Digits only: Number() would also take '1e3', '0x50' or '80.0'.
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

/** An absolute http(s) URL with a host and no whitespace anywhere. */
function isHttpUrl(text: string): boolean {
  if (/\s/.test(text) || !/^https?:\/\/[^/]/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** 32 raw bytes from 64 hex characters or base64, or undefined when it is neither. */
export function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
