import type { SecretBox } from '../security/secret-box';

/**
 * LOCAL storage speaks the presigned-URL flows of S3 with URLs that point at this server:
 * `/api/local-storage/{configId}/{key}?expires=…&sig=…`, signed with HMAC-SHA256 under a key derived from the
 * encryption key. The signature covers the method, the config, the key, the expiry and every parameter that
 * shapes the answer (declared size of a PUT; disposition, filename and type of a GET).
 */
export const LOCAL_STORAGE_PREFIX = '/api/local-storage';
const PURPOSE = 'local-storage-url';

export interface LocalPutGrant {
  method: 'PUT';
  configId: string;
  key: string;
  expires: number;
  /** Most bytes the body may have. */
  size: number;
  /** A part of a multipart upload rather than the whole object. */
  part?: { uploadId: string; partNumber: number };
}

export interface LocalGetGrant {
  method: 'GET';
  configId: string;
  key: string;
  expires: number;
  disposition: 'inline' | 'attachment';
  filename: string;
  contentType: string;
}

/**
 * Several whole files read in one GET, their bytes one after another in the order given: a copy of many small
 * files costs the browser one request per group rather than one per file. Each key is signed with its size, so
 * the answer's length is known before any byte and a file that changed since is refused.
 */
export interface LocalGroupGrant {
  method: 'GET-GROUP';
  configId: string;
  files: { key: string; size: number }[];
  expires: number;
}

export type LocalGrant = LocalPutGrant | LocalGetGrant;

/** One unambiguous text per grant: JSON of the fields in a fixed order. */
function canonical(grant: LocalGrant): string {
  if (grant.method === 'GET') {
    return JSON.stringify(['GET', grant.configId, grant.key, grant.expires, grant.disposition, grant.filename, grant.contentType]);
  }
  // A part URL signs another text than an object URL: neither can be turned into the other.
  if (grant.part) {
    return JSON.stringify(['PUT-PART', grant.configId, grant.key, grant.expires, grant.size, grant.part.uploadId, grant.part.partNumber]);
  }
  return JSON.stringify(['PUT', grant.configId, grant.key, grant.expires, grant.size]);
}

function canonicalGroup(grant: LocalGroupGrant): string {
  return JSON.stringify(['GET-GROUP', grant.configId, grant.expires, grant.files.map(({ key, size }) => [key, size])]);
}

export const encodeKeyPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function signLocalUrl(secrets: SecretBox, baseUrl: string, grant: LocalGrant): string {
  const query = new URLSearchParams({ expires: String(grant.expires) });
  if (grant.method === 'PUT') {
    query.set('size', String(grant.size));
    if (grant.part) {
      query.set('uploadId', grant.part.uploadId);
      query.set('partNumber', String(grant.part.partNumber));
    }
  } else {
    query.set('disposition', grant.disposition);
    query.set('filename', grant.filename);
    query.set('type', grant.contentType);
  }
  query.set('sig', secrets.sign(PURPOSE, canonical(grant)));
  return `${baseUrl}${LOCAL_STORAGE_PREFIX}/${encodeURIComponent(grant.configId)}/${encodeKeyPath(grant.key)}?${query}`;
}

/** `/api/local-storage/{configId}?expires=…&key=…&size=…&key=…&size=…&sig=…`: the keys and sizes in plan order. */
export function signLocalGroupUrl(secrets: SecretBox, baseUrl: string, grant: LocalGroupGrant): string {
  const query = new URLSearchParams({ expires: String(grant.expires) });
  for (const { key, size } of grant.files) {
    query.append('key', key);
    query.append('size', String(size));
  }
  query.set('sig', secrets.sign(PURPOSE, canonicalGroup(grant)));
  return `${baseUrl}${LOCAL_STORAGE_PREFIX}/${encodeURIComponent(grant.configId)}?${query}`;
}

export type LocalGroupCheck = { ok: true; grant: LocalGroupGrant } | { ok: false; problem: 'invalid' | 'expired' };

/** Reads a group grant back from its URL's query, checked as verifyLocalUrl checks one key's. */
export function verifyLocalGroupUrl(secrets: SecretBox, now: Date, configId: string, query: URLSearchParams): LocalGroupCheck {
  const expires = Number(query.get('expires'));
  const keys = query.getAll('key');
  const sizes = query.getAll('size').map(Number);
  if (!Number.isSafeInteger(expires) || keys.length === 0 || keys.length !== sizes.length) return { ok: false, problem: 'invalid' };
  if (sizes.some((size) => !Number.isSafeInteger(size) || size < 0)) return { ok: false, problem: 'invalid' };
  const grant: LocalGroupGrant = { method: 'GET-GROUP', configId, expires, files: keys.map((key, index) => ({ key, size: sizes[index] as number })) };
  if (!secrets.verify(PURPOSE, canonicalGroup(grant), query.get('sig') ?? '')) return { ok: false, problem: 'invalid' };
  if (expires * 1000 <= now.getTime()) return { ok: false, problem: 'expired' };
  return { ok: true, grant };
}

export type LocalUrlCheck = { ok: true; grant: LocalGrant } | { ok: false; problem: 'invalid' | 'expired' };

/** Reads the grant back from a request; the signature is compared in constant time, then the expiry. */
export function verifyLocalUrl(
  secrets: SecretBox,
  now: Date,
  method: 'PUT' | 'GET',
  configId: string,
  key: string,
  query: URLSearchParams,
): LocalUrlCheck {
  const expires = Number(query.get('expires'));
  const sig = query.get('sig') ?? '';
  if (!Number.isSafeInteger(expires)) return { ok: false, problem: 'invalid' };
  let grant: LocalGrant;
  if (method === 'PUT') {
    const size = Number(query.get('size'));
    if (!Number.isSafeInteger(size) || size < 0) return { ok: false, problem: 'invalid' };
    grant = { method, configId, key, expires, size };
    const uploadId = query.get('uploadId');
    if (uploadId !== null) {
      const partNumber = Number(query.get('partNumber'));
      if (!Number.isSafeInteger(partNumber) || partNumber < 1) return { ok: false, problem: 'invalid' };
      grant.part = { uploadId, partNumber };
    }
  } else {
    const disposition = query.get('disposition');
    if (disposition !== 'inline' && disposition !== 'attachment') return { ok: false, problem: 'invalid' };
    grant = { method, configId, key, expires, disposition, filename: query.get('filename') ?? '', contentType: query.get('type') ?? '' };
  }
  if (!secrets.verify(PURPOSE, canonical(grant), sig)) return { ok: false, problem: 'invalid' };
  if (expires * 1000 <= now.getTime()) return { ok: false, problem: 'expired' };
  return { ok: true, grant };
}

/** Seconds since the epoch, `seconds` from now. */
export const expiryFrom = (now: Date, seconds: number) => Math.floor(now.getTime() / 1000) + seconds;
