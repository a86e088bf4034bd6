// Writes `name.br` and `name.gz` beside each compressible file of a build, once, so the server only negotiates:
// no compression work per request (server/static/serve-file.ts picks the variant).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Text types worth compressing. Images, fonts (woff2), zips and source maps are left alone: already compressed, or only for devtools. */
const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|webmanifest|txt|xml)$/;
/** Below this, the headers cost more than the bytes saved. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

async function compressFile(path) {
  const plain = await readFile(path);
  const variants = await Promise.all([
    brotli(plain, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }).then((bytes) => ['.br', bytes]),
    gz(plain, { level: constants.Z_BEST_COMPRESSION }).then((bytes) => ['.gz', bytes]),
  ]);
  // A variant no smaller than the file itself is not written: the server then sends the plain file.
  await Promise.all(variants.filter(([, bytes]) => bytes.length < plain.length).map(([ext, bytes]) => writeFile(path + ext, bytes)));
}

/** Compresses every eligible file under `dir`; returns how many files it compressed. */
export async function precompressDir(dir) {
  const wanted = [];
  for await (const path of filesUnder(dir)) {
    if (COMPRESSIBLE.test(path) && (await stat(path)).size >= MIN_BYTES) wanted.push(path);
  }
  await Promise.all(wanted.map(compressFile));
  return wanted.length;
}

/**
 * Vite plugin: compresses the output directory after everything else wrote to it, the service worker included
 * (vite-plugin-pwa writes sw.js in its own post closeBundle, so this plugin must come after it in the list).
 */
export function precompress() {
  let outDir = 'dist';
  return {
    name: 'clipstash:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(outDir);
      },
    },
  };
}
