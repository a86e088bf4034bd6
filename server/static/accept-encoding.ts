/** The encodings this server can send, in its own order of preference when the client rates them equally. */
export type ContentCoding = 'br' | 'gzip';

/**
 * The best of `available` that `Accept-Encoding` allows (RFC 9110 §12.5.3): the highest q wins, the server's order
 * breaks ties, `q=0` forbids, `*` rates every coding not named. `undefined` means send the identity coding.
 */
export function pickEncoding(header: string | undefined, available: readonly ContentCoding[]): ContentCoding | undefined {
  if (!header) return undefined;
  const ratings = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    ratings.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const wildcard = ratings.get('*') ?? 0;
  let best: { coding: ContentCoding; q: number } | undefined;
  for (const coding of available) {
    const q = ratings.get(coding) ?? (coding === 'gzip' ? ratings.get('x-gzip') : undefined) ?? wildcard;
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  return best?.coding;
}
