// Lint: typescript-eslint's recommended rules plus the import directions of docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What each top-level folder may NOT import (folders are matched anywhere in a relative specifier). */
const forbidden = {
  contract: ['server', 'machines', 'workers', 'src'],
  server: ['machines', 'workers', 'src'],
  machines: ['server', 'src'],
  workers: ['server', 'machines', 'src'],
  src: ['server'],
};

/**
 * Inside server/: features (server/features/<feature>/) sit over the shared layers, which never reach back up.
 * storage/ stays below forms/ (a form streams into a driver, never the other way).
 */
const serverLayers = {
  'server/storage': ['features', 'forms', 'middleware', 'openapi'],
  'server/db': ['features', 'storage', 'forms', 'middleware'],
  'server/security': ['features', 'forms', 'middleware'],
  'server/net': ['features', 'forms', 'middleware'],
  'server/forms': ['features', 'middleware'],
};

/** A feature's rules and records never import HTTP modules (routes, middleware): the HTTP side calls down. */
const httpModules = ['**/routes', '**/*-routes', './routes', './*-routes', '**/middleware', './middleware'];

const folderPatterns = (folders) => folders.map((folder) => `**/${folder}/**`).concat(folders.map((f) => `../${f}`));

const bannedImports = (folder, banned) => ({
  group: folderPatterns(banned),
  message: `${folder}/ may not import from ${banned.join(', ')} (see docs/architecture.md).`,
});

/** Tests may import across layers (they build whole apps). */
const restrictImports = (folder, patterns) => ({
  files: [`${folder}/**/*.{ts,tsx}`],
  ignores: [`${folder}/**/*.test.{ts,tsx}`],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'node_modules/**', 'src/locales/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...Object.entries(forbidden).map(([folder, banned]) => restrictImports(folder, [bannedImports(folder, banned)])),
  // A later block's options replace an earlier block's for the same rule: each layer repeats the server's own bans.
  ...Object.entries(serverLayers).map(([folder, banned]) =>
    restrictImports(folder, [bannedImports('server', forbidden.server), bannedImports(folder, banned)]),
  ),
  {
    files: ['server/features/**/*.ts'],
    ignores: ['server/features/**/*.test.ts', 'server/features/**/*routes.ts', 'server/features/**/middleware.ts', 'server/features/webdav/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            bannedImports('server', forbidden.server),
            { group: httpModules, message: 'A feature module may not import routes or middleware (see docs/architecture.md).' },
          ],
        },
      ],
    },
  },
  {
    // Machines may import worker types only, never worker code.
    files: ['machines/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/workers/**'], allowTypeImports: true, message: 'machines/ may only `import type` from workers/.' }] },
      ],
    },
  },
  {
    // src reaches the worker only through src/lib/engine-client.ts.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/engine-client.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/workers/**'], allowTypeImports: true, message: 'src/ uses the worker only via src/lib/engine-client.ts.' }] },
      ],
    },
  },
  {
    // The API reference page's own scripts: plain browser scripts, served as files (server/openapi/docs-routes.ts).
    files: ['server/openapi/page/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly' } },
  },
  {
    // The copy couriers' service worker: a plain script, served as it is.
    files: ['public/courier-sw.js'],
    languageOptions: { sourceType: 'script', globals: { self: 'readonly' } },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
