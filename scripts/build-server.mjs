// `node scripts/build-server.mjs` (part of `npm run build`): bundles the server into dist-server/ for production,
// so that `npm start` runs plain JavaScript with no TypeScript loader. One bundle loads much faster than Node
// resolving hundreds of package files. better-sqlite3's JavaScript is bundled too: its addon is loaded from the
// package by path (server/db/dialect.ts). pg's optional pg-native stays an import. What only some servers or some
// requests need (the AWS SDK, pg, the OpenAPI document) is imported dynamically: chunks loaded on first use.
import { rmSync } from 'node:fs';
import { build } from 'rolldown';

const OUT_DIR = 'dist-server';

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  input: { index: 'server/index.ts' },
  platform: 'node',
  // ssh2 loads optional native addons (`.node` files) inside try/catch: a bundler cannot take them in, so ssh2 is
  // required from node_modules at run time, as pg-native would be. So are sharp (libvips, a native addon) and
  // heic-decode (which finds its WebAssembly file beside its own script).
  external: ['pg-native', 'ssh2', 'sharp', 'heic-decode'],
  output: {
    dir: OUT_DIR,
    format: 'esm',
    // Smaller code parses faster at start-up. Local names are shortened; function and class names are kept, so
    // that stack traces stay readable.
    minify: { compress: true, mangle: { keepNames: true }, codegen: { removeWhitespace: true } },
    // Non-ASCII text (the Chinese messages) escaped: the source then loads as a one-byte string, which Node decodes
    // and V8 parses faster than a two-byte one.
    charset: 'ascii',
  },
  logLevel: 'warn',
});
