import type { RawAnswer } from './types';

/** The answers of a stored object served with Range support (server/storage/serve-object.ts). */
export const objectStream: readonly RawAnswer[] = [
  {
    status: 200,
    contentType: 'application/octet-stream',
    description: 'The whole object, with its own content type.',
    headers: ['ETag', 'Content-Length', 'Content-Disposition', 'Accept-Ranges'],
  },
  { status: 206, contentType: 'application/octet-stream', description: 'The one byte range asked for with `Range`.', headers: ['Content-Range'] },
];
