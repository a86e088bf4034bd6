import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, decodeKey, readConfig } from './config';

function problemWith(env: Record<string, string>): string {
  try {
    readConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`readConfig accepted ${JSON.stringify(env)}`);
}

describe('readConfig', () => {
  it('has the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 8787,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      adminUsername: 'admin',
      adminPassword: undefined,
      encryptionKey: undefined,
      publicUrl: undefined,
      allowPrivateUrls: false,
      trustProxy: false,
      adminTokenTtlHours: 24,
      staticDir: resolve('./dist'),
      databaseUrl: undefined,
      sharedDataDir: false,
      corsOrigins: [],
      jobLeaseSeconds: 30,
      logLevel: 'info',
      metricsToken: undefined,
      metricsPort: undefined,
      shutdownGraceMs: 30_000,
    });
  });

  it('reads every variable', () => {
    const key = randomBytes(32).toString('hex');
    const config = readConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/clipstash',
      ADMIN_USERNAME: ' boss ',
      ADMIN_PASSWORD: 'long enough',
      ENCRYPTION_KEY: key,
      PUBLIC_URL: 'https://paste.example.com/',
      ALLOW_PRIVATE_URLS: '1',
      TRUST_PROXY: '1',
      ADMIN_TOKEN_TTL_HOURS: '48',
      JOB_LEASE_SECONDS: '5',
      LOG_LEVEL: 'Debug',
      METRICS_TOKEN: 'a metrics token of some length',
      METRICS_PORT: '9464',
      SHUTDOWN_GRACE_MS: '500',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/srv/clipstash',
      adminUsername: 'boss',
      adminPassword: 'long enough',
      encryptionKey: key,
      publicUrl: 'https://paste.example.com',
      allowPrivateUrls: true,
      trustProxy: true,
      adminTokenTtlHours: 48,
      jobLeaseSeconds: 5,
      logLevel: 'debug',
      metricsToken: 'a metrics token of some length',
      metricsPort: 9464,
      shutdownGraceMs: 500,
    });
  });

  it.each([
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ METRICS_PORT: '0' }, 'METRICS_PORT must be a whole number from 1 to 65535'],
    [{ SHUTDOWN_GRACE_MS: '-1' }, 'SHUTDOWN_GRACE_MS must be a whole number from 0 to 3600000'],
  ])('rejects %j', (env, problem) => {
    expect(problemWith(env)).toContain(problem);
  });

  it('rejects a short METRICS_TOKEN without echoing it', () => {
    const problem = problemWith({ METRICS_TOKEN: 'guessable' });
    expect(problem).toContain('METRICS_TOKEN must be at least 16 characters');
    expect(problem).not.toContain('guessable');
  });

  it('does not read process.env when given an environment', () => {
    const saved = process.env.PORT;
    process.env.PORT = 'not a port';
    try {
      expect(readConfig({}).port).toBe(8787);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('treats empty values as unset', () => {
    const config = readConfig({ PORT: '', ADMIN_PASSWORD: '', ENCRYPTION_KEY: ' ', PUBLIC_URL: '  ', HOST: '' });
    expect(config).toMatchObject({ port: 8787, adminPassword: undefined, encryptionKey: undefined, publicUrl: undefined, host: '0.0.0.0' });
  });

  it.each(['abc', '-1', '65536', '80.5', '1e3', '0x50', '80 80'])('rejects PORT=%j naming PORT', (port) => {
    expect(problemWith({ PORT: port })).toMatch(/PORT must be a whole number from 0 to 65535/);
  });

  it.each(['0', '80', '65535', ' 8080 '])('accepts PORT=%j', (port) => {
    expect(readConfig({ PORT: port }).port).toBe(Number(port));
  });

  it.each(['0', '-2', '1.5', 'day'])('rejects ADMIN_TOKEN_TTL_HOURS=%j', (ttl) => {
    expect(problemWith({ ADMIN_TOKEN_TTL_HOURS: ttl })).toContain('ADMIN_TOKEN_TTL_HOURS');
  });

  it('rejects an ADMIN_PASSWORD under 8 characters', () => {
    expect(problemWith({ ADMIN_PASSWORD: 'short12' })).toMatch(/ADMIN_PASSWORD must be at least 8 characters/);
    expect(readConfig({ ADMIN_PASSWORD: '12345678' }).adminPassword).toBe('12345678');
  });

  it('does not echo the rejected password', () => {
    expect(problemWith({ ADMIN_PASSWORD: 'secr3t' })).not.toContain('secr3t');
  });

  it.each([' ', 'u'.repeat(51)])('rejects ADMIN_USERNAME=%j', (name) => {
    expect(problemWith({ ADMIN_USERNAME: name })).toContain('ADMIN_USERNAME');
  });

  it.each([
    ['a word', 'not-a-key'],
    ['63 hex characters', 'a'.repeat(63)],
    ['hex of 31 bytes', randomBytes(31).toString('hex')],
    ['base64 of 16 bytes', randomBytes(16).toString('base64')],
    ['base64 of 48 bytes', randomBytes(48).toString('base64')],
  ])('rejects an ENCRYPTION_KEY that is %s, naming ENCRYPTION_KEY', (_name, key) => {
    expect(problemWith({ ENCRYPTION_KEY: key })).toMatch(/ENCRYPTION_KEY must be 32 bytes/);
  });

  it('accepts an ENCRYPTION_KEY as 64 hex characters or base64 of 32 bytes', () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('base64')]) {
      expect(readConfig({ ENCRYPTION_KEY: text }).encryptionKey).toBe(text);
      expect(decodeKey(text)?.equals(bytes)).toBe(true);
    }
  });

  it.each(['paste.example.com', 'ftp://paste.example.com', 'http://', 'https:///path', 'http://exa mple.com', 'https://paste.example.com/a b', 'javascript:alert(1)'])(
    'rejects PUBLIC_URL=%j naming PUBLIC_URL',
    (url) => {
      expect(problemWith({ PUBLIC_URL: url })).toContain('PUBLIC_URL must be an http(s) URL');
    },
  );

  it.each([
    ['http://localhost:8787', 'http://localhost:8787'],
    ['https://paste.example.com//', 'https://paste.example.com'],
    ['https://example.com/clip/', 'https://example.com/clip'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('accepts PUBLIC_URL=%j without trailing slashes', (url, expected) => {
    expect(readConfig({ PUBLIC_URL: url }).publicUrl).toBe(expected);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['TRUE', true],
    ['0', false],
    ['false', false],
  ])('reads ALLOW_PRIVATE_URLS and TRUST_PROXY=%j as %s', (value, expected) => {
    expect(readConfig({ ALLOW_PRIVATE_URLS: value }).allowPrivateUrls).toBe(expected);
    expect(readConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each(['ALLOW_PRIVATE_URLS', 'TRUST_PROXY'])('rejects %s=yes', (name) => {
    expect(problemWith({ [name]: 'yes' })).toContain(name);
  });

  describe('DATABASE_URL', () => {
    const key = randomBytes(32).toString('hex');
    const url = 'postgres://clip:s3cret-pw@db.example.com:5432/clipstash';

    it('selects PostgreSQL; SHARED_DATA_DIR is off unless set', () => {
      expect(readConfig({ DATABASE_URL: ` ${url} `, ENCRYPTION_KEY: key })).toMatchObject({ databaseUrl: url, sharedDataDir: false });
      expect(readConfig({ DATABASE_URL: url, SHARED_DATA_DIR: '1' })).toMatchObject({ databaseUrl: url, sharedDataDir: true });
    });

    it('refuses anything but a postgres:// URL without echoing it', () => {
      const message = problemWith({ DATABASE_URL: 'mysql://clip:s3cret-pw@db/clipstash', ENCRYPTION_KEY: key });
      expect(message).toContain('DATABASE_URL must be a postgres:// URL');
      expect(message).not.toContain('s3cret-pw');
    });

    it('needs ENCRYPTION_KEY unless DATA_DIR (and its key file) is shared, and says why', () => {
      const message = problemWith({ DATABASE_URL: url });
      expect(message).toMatch(/ENCRYPTION_KEY must be set with DATABASE_URL: every instance/);
      expect(message).not.toContain('s3cret-pw');
    });
  });

  describe('CORS_ORIGINS', () => {
    it('reads a comma-separated list of origins as browsers send them', () => {
      const config = readConfig({ CORS_ORIGINS: ' https://Paste.Example.com/ , http://localhost:5173,,https://a.example:443,https://paste.example.com' });
      expect(config.corsOrigins).toEqual(['https://paste.example.com', 'http://localhost:5173', 'https://a.example']);
    });

    it.each(['*', 'paste.example.com', 'ftp://paste.example.com', 'https://paste.example.com/app', 'https://paste.example.com/?x=1', 'https://u:p@paste.example.com'])(
      'refuses %j naming CORS_ORIGINS',
      (origin) => {
        expect(problemWith({ CORS_ORIGINS: `https://ok.example, ${origin}` })).toContain('CORS_ORIGINS must list origins');
      },
    );
  });

  it('lists every problem at once', () => {
    const message = problemWith({ PORT: 'x', ADMIN_PASSWORD: 'short', ENCRYPTION_KEY: 'bad', PUBLIC_URL: 'nope' });
    for (const name of ['PORT', 'ADMIN_PASSWORD', 'ENCRYPTION_KEY', 'PUBLIC_URL']) expect(message).toContain(name);
  });
});
