import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/**
 * The Node side: a small client that walks the seeded folder and sends each file through the fs API
 * (`POST /api/admin/fs/upload`, a multipart form of `path` — the target folder, first, so the server can stream
 * the file straight to storage — and `file`), `inFlight` requests at a time, each file read from disk as its turn
 * comes. Answers the seconds from the walk's start to the last answer (the bench's clock). The folder lands as
 * `<into><folder name>/sub-NN/…`, as the browser's folder upload puts it.
 */
export async function nodeUpload(options: { serverUrl: string; token: string; folder: string; into: string; inFlight: number }): Promise<number> {
  const { serverUrl, token, folder, into, inFlight } = options;
  const base = join(folder, '..');
  const started = performance.now();
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => relative(base, join(entry.parentPath, entry.name)).split(sep).join('/'));
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < files.length; index = next++) {
      const relativePath = files[index] as string;
      const form = new FormData();
      form.append('path', `${into}${posix.dirname(relativePath)}/`);
      form.append('file', new Blob([await readFile(join(base, relativePath))], { type: 'text/plain' }), posix.basename(relativePath));
      const answer = await fetch(`${serverUrl}/api/admin/fs/upload`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      const text = await answer.text();
      if (answer.status !== 201) throw new Error(`upload of ${relativePath} answered ${answer.status}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, files.length) }, lane));
  return (performance.now() - started) / 1000;
}
