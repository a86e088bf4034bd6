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

/** Whether a bucket can be a host name's first labels (the SDK's rule): over HTTPS a dot would break the certificate's wildcard. */
function virtualHostable(bucket: string, https: boolean): boolean {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || /\.\.|\.-|-\./.test(bucket) || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return false;
  return !(https && bucket.includes('.'));
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

const byCodePoint = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * S3 presigned URLs (Signature V4, query authentication, unsigned payload, only `host` signed), the very URLs the
 * AWS SDK's getSignedUrl makes (server/storage/s3-presign.test.ts compares them) at a small part of its cost: a
 * copy plan of 200 files spent about 90 ms in the SDK's presigner (its whole middleware stack per URL), here one
 * SHA-256 and one HMAC per URL, the day's signing key derived once.
 */
export class S3Presigner {
  private signingKey: { date: string; key: Buffer } | undefined;
  private readonly origin: string;
  private readonly basePath: string;

  /** The bucket in the path, not the host name: asked for, or a bucket name that cannot be a host's label (as the SDK does). */
  private readonly pathStyle: boolean;

  constructor(private readonly options: PresignerOptions) {
    const endpoint = new URL(options.endpoint);
    this.pathStyle = options.pathStyle || !virtualHostable(options.bucket, endpoint.protocol === 'https:');
    this.basePath = endpoint.pathname.replace(/\/+$/, '');
    this.origin = this.pathStyle ? endpoint.origin : `${endpoint.protocol}//${options.bucket}.${endpoint.host}`;
  }

  presign(request: PresignRequest, now: Date = new Date()): string {
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
    const host = new URL(this.origin).host;
    const canonicalRequest = [request.method, path, canonicalQuery.join('&'), `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
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
