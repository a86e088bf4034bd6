// `node scripts/build-server.mjs` (part of `npm run build`): bundles the server into dist-server/ for production,
// so that `npm start` runs plain JavaScript with no TypeScript loader. One bundle loads much faster than Node
// resolving hundreds of package files. Native packages stay imports (better-sqlite3; pg's optional pg-native).
import { rmSync } from 'node:fs';
import { build } from 'rolldown';

const OUT_DIR = 'dist-server';

rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  input: { index: 'server/index.ts' },
  platform: 'node',
  external: ['better-sqlite3', 'pg-native'],
  output: {
    dir: OUT_DIR,
    format: 'esm',
    // Smaller code parses faster at start-up; names are kept, so that stack traces stay readable.
    minify: { compress: true, mangle: false, codegen: { removeWhitespace: true } },
  },
  logLevel: 'warn',
});
