import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { S3Presigner, type PresignerOptions } from './s3-presign';

const signingDate = new Date('2026-11-26T03:04:05.678Z');

/** A storage config: its own key and secret (with characters a URL would encode), us-east-1 unless told. */
const config = (endpoint: string, bucket: string, pathStyle: boolean, region = 'us-east-1'): PresignerOptions => ({
  endpoint,
  region,
  bucket,
  accessKeyId: `AK-${bucket}`,
  secretAccessKey: `secret/${bucket}+`,
  pathStyle,
});

const configs = [
  config('http://127.0.0.1:9000', 'clipstash-test', true),
  config('https://storage.example.com/base/', 'files', true, 'auto'),
  config('https://s3.eu-west-1.amazonaws.com', 'my-bucket', false, 'eu-west-1'),
  config('https://minio.example.com:9443', 'media', false),
  // Virtual host asked, and the SDK's path-style fallbacks: dots over HTTPS, not a DNS name, too short, IP-like,
  // short labels over HTTP, an endpoint on an IP address.
  config('https://s3.example.com', 'my.dotted.bucket', false),
  config('http://s3.example.com', 'Upper_Case', false),
  config('http://s3.example.com', 'dotted.over.http', false),
  config('http://s3.example.com', 'ab', false),
  config('http://s3.example.com', '10.0.0.1', false),
  config('http://s3.example.com', 'ab.cd.ef', false),
  config('http://192.168.1.5:9000', 'on-an-ip', false),
  config('http://[::1]:9000', 'on-ipv6', false),
];

const keys = ['a.txt', 'folder/sub/file.bin', "odd/a b+ü~*(x)!'.bin", 'emoji/😀 #1?&=.txt', 'spaces/  two  .md'];

const sdkClient = (config: PresignerOptions) =>
  new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.pathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

/**
 * The presigner must make exactly the SDK's URLs: same URL, same signature, for every operation the driver signs.
 * (s3rver, which the other tests upload to, does not check a presigned URL's signature: this is what does.)
 */
describe('S3Presigner', () => {
  for (const config of configs) {
    it(`signs as the AWS SDK does (${config.endpoint}, bucket ${config.bucket}, ${config.pathStyle ? 'path style' : 'virtual host asked'})`, async () => {
      const client = sdkClient(config);
      const presigner = new S3Presigner(config);
      const Bucket = config.bucket;
      for (const Key of keys) {
        const put = await getSignedUrl(client, new PutObjectCommand({ Bucket, Key, ContentType: 'text/plain; charset=utf-8' }), { expiresIn: 86_400, signingDate });
        expect(presigner.presign({ method: 'PUT', key: Key, query: { 'x-id': 'PutObject' }, expiresInSeconds: 86_400 }, signingDate)).toBe(put);

        const disposition = `attachment; filename="${Key.replace(/[^\x20-\x7e]|["\\%]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(Key)}`;
        const get = await getSignedUrl(client, new GetObjectCommand({ Bucket, Key, ResponseContentDisposition: disposition, ResponseContentType: 'image/png' }), { expiresIn: 600, signingDate });
        const query = { 'response-content-disposition': disposition, 'response-content-type': 'image/png', 'x-id': 'GetObject' };
        expect(presigner.presign({ method: 'GET', key: Key, query, expiresInSeconds: 600 }, signingDate)).toBe(get);

        const part = await getSignedUrl(client, new UploadPartCommand({ Bucket, Key, UploadId: 'up/id+=~', PartNumber: 12 }), { expiresIn: 3600, signingDate });
        expect(presigner.presign({ method: 'PUT', key: Key, query: { partNumber: '12', uploadId: 'up/id+=~', 'x-id': 'UploadPart' }, expiresInSeconds: 3600 }, signingDate)).toBe(part);
      }
    });
  }

  it('refuses an expiry past a week or under a second, as the SDK did', async () => {
    const config = configs[0]!;
    const presigner = new S3Presigner(config);
    const week = 7 * 24 * 3600;
    await expect(getSignedUrl(sdkClient(config), new PutObjectCommand({ Bucket: config.bucket, Key: 'k' }), { expiresIn: week + 1 })).rejects.toThrow();
    for (const expiresInSeconds of [week + 1, 0]) {
      expect(() => presigner.presign({ method: 'PUT', key: 'k', query: {}, expiresInSeconds })).toThrow(RangeError);
    }
    expect(presigner.presign({ method: 'PUT', key: 'k', query: {}, expiresInSeconds: week })).toContain(`X-Amz-Expires=${week}&`);
  });

  it('derives a new signing key when the day changes', async () => {
    const config = configs[0]!;
    const presigner = new S3Presigner(config);
    const client = sdkClient(config);
    for (const date of [new Date('2026-11-26T23:59:59Z'), new Date('2026-11-27T00:00:01Z')]) {
      const sdk = await getSignedUrl(client, new PutObjectCommand({ Bucket: config.bucket, Key: 'k' }), { expiresIn: 60, signingDate: date });
      expect(presigner.presign({ method: 'PUT', key: 'k', query: { 'x-id': 'PutObject' }, expiresInSeconds: 60 }, date)).toBe(sdk);
    }
  });
});
