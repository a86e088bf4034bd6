import { createHash, createHmac } from 'node:crypto';

/** Percent-encoding as Signature V4 wants it (RFC 3986): everything but A–Z, a–z, 0–9 and `-_.~`. */
export const encodeRfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

export interface PresignerOptions {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`. */
  pathStyle: boolean;
}

export interface PresignRequest {
  method: 'GET' | 'PUT';
  key: string;
  /** The operation's own query parameters (uploadId, response-content-type, …), and the SDK's `x-id`. */
  query: Record<string, string>;
  expiresInSeconds: number;
}

/** Signature V4 presigned URLs live at most a week; the SDK refused longer ones, and so does this. */
export const S3_MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/**
 * Whether a bucket can be the first labels of the endpoint's host name (the SDK's rule): not on an IP address, and
 * a DNS label of 3–63 characters, or several of them over HTTP only (a dot would break the certificate's wildcard).
 */
function virtualHostable(bucket: string, endpoint: URL): boolean {
  if (/^\d+\.\d+\.\d+\.\d+$|^\[/.test(endpoint.hostname)) return false;
  const label = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return false;
  if (endpoint.protocol === 'https:') return label.test(bucket);
  return bucket.length <= 63 && bucket.split('.').every((part) => label.test(part));
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

const byCodePoint = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * S3 presigned URLs (Signature V4, query authentication, unsigned payload, only `host` signed): the URLs the AWS
 * SDK's getSignedUrl made for the same endpoint, bucket and key (server/storage/s3-presign.test.ts compares them,
 * path style and virtual host, with its fallbacks), at a small part of its cost: a copy plan of 200 files spent
 * about 90 ms in the SDK's presigner (its whole middleware stack per URL), here one SHA-256 and one HMAC per URL,
 * the day's signing key derived once. One difference is kept on purpose: an endpoint's path ending in `/` joins
 * the key with one slash, as objectUrl does (the SDK's virtual-host URLs had two).
 */
export class S3Presigner {
  private signingKey: { date: string; key: Buffer } | undefined;
  private readonly origin: string;
  private readonly host: string;
  private readonly basePath: string;

  /** The bucket in the path, not the host name: asked for, or a bucket name that cannot be a host's label (as the SDK does). */
  private readonly pathStyle: boolean;

  constructor(private readonly options: PresignerOptions) {
    const endpoint = new URL(options.endpoint);
    this.pathStyle = options.pathStyle || !virtualHostable(options.bucket, endpoint);
    this.basePath = endpoint.pathname.replace(/\/+$/, '');
    this.host = this.pathStyle ? endpoint.host : `${options.bucket}.${endpoint.host}`;
    this.origin = `${endpoint.protocol}//${this.host}`;
  }

  /** The URL; throws a RangeError for an expiry past a week (or under a second), which S3 would refuse. */
  presign(request: PresignRequest, now: Date = new Date()): string {
    if (!(request.expiresInSeconds >= 1 && request.expiresInSeconds <= S3_MAX_PRESIGN_SECONDS)) {
      throw new RangeError(`A presigned URL lives from 1 second to a week, not ${request.expiresInSeconds} s`);
    }
    const { pathStyle } = this;
    const { region, accessKeyId, bucket } = this.options;
    const amzDate = now.toISOString().replace(/[-:]|\.\d{3}/g, '');
    const date = amzDate.slice(0, 8);
    const scope = `${date}/${region}/s3/aws4_request`;
    const objectPath = `${pathStyle ? `/${encodeRfc3986(bucket)}` : ''}/${request.key.split('/').map(encodeRfc3986).join('/')}`;
    const path = `${this.basePath}${objectPath}`;
    const query = Object.entries({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': `${accessKeyId}/${scope}`,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(request.expiresInSeconds),
      'X-Amz-SignedHeaders': 'host',
      ...request.query,
    }).map(([name, value]): [string, string] => [encodeRfc3986(name), encodeRfc3986(value)]);
    const canonicalQuery = query.sort(byCodePoint).map(([name, value]) => `${name}=${value}`);
    const canonicalRequest = [request.method, path, canonicalQuery.join('&'), `host:${this.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest, 'utf8').digest('hex')].join('\n');
    const signature = hmac(this.keyFor(date), stringToSign).toString('hex');
    const signed = [...query, ['X-Amz-Signature', signature] as [string, string]].sort(byCodePoint);
    return `${this.origin}${path}?${signed.map(([name, value]) => `${name}=${value}`).join('&')}`;
  }

  /** The day's signing key: HMAC-SHA256 down the scope (date, region, service, terminator). */
  private keyFor(date: string): Buffer {
    if (this.signingKey?.date !== date) {
      const key = ['s3', 'aws4_request'].reduce((parent, part) => hmac(parent, part), hmac(hmac(`AWS4${this.options.secretAccessKey}`, date), this.options.region));
      this.signingKey = { date, key };
    }
    return this.signingKey.key;
  }
}
