import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ResolveModulePreloadDependenciesFn } from 'vite';
import { configDefaults } from 'vitest/config';
import { VitePWA } from 'vite-plugin-pwa';
import { SHARE_TARGET_FIELDS, SHARE_TARGET_PATH } from './contract/share-target.ts';
import { linguiMacro } from './scripts/lingui-macro.ts';
import { precompress } from './scripts/precompress.mjs';
import { sharePageChunks } from './scripts/share-page-chunks.ts';

const sharePages = sharePageChunks(fileURLToPath(new URL('.', import.meta.url)));

/** React DOM and its scheduler: a chunk of their own (see the code-splitting groups). */
const REACT_DOM = /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/;

/**
 * Modules the app loads once the page has settled (src/lib/idle.ts), perhaps before the service worker controls
 * the page: their chunks, with every chunk they import, belong to the app shell.
 */
const LOADED_WHEN_SETTLED = [
  'src/components/Toaster.tsx',
  'src/app/tasks.ts',
  'src/lib/service-worker.ts',
  // The app's actors (XState) on a share's page, and the prompts that come with them.
  'src/app/create-actors.ts',
  'src/app/shell/InstallPrompt.tsx',
  'src/app/shell/UpdatePrompt.tsx',
];
const settledChunks = new Set<string>();

/** Notes the files of LOADED_WHEN_SETTLED's chunks and of what they import (CSS too), for appShellOnly. */
function noteSettledChunks(): Plugin {
  return {
    name: 'clipstash:note-settled-chunks',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])));
      const add = (fileName: string) => {
        if (settledChunks.has(fileName)) return;
        settledChunks.add(fileName);
        const chunk = chunks.get(fileName);
        chunk?.viteMetadata?.importedCss.forEach((css) => settledChunks.add(css));
        chunk?.imports.forEach(add);
      };
      for (const chunk of chunks.values()) {
        const id = chunk.facadeModuleId?.replaceAll('\\', '/');
        if (id && LOADED_WHEN_SETTLED.some((module) => id.endsWith(`/${module}`))) add(chunk.fileName);
      }
    },
  };
}

/**
 * Pages with many chunks that a paste's or a file's visitor never needs at once: the signed-in pages (by their
 * second visit the service worker serves every chunk from its precache), the login prompt, a file request's
 * upload page (whose sender then spends far longer sending than one more round trip), and the owner's dialogs and
 * access log on a share's page (the names of their scripts sat in the share pages' own chunks).
 */
const LEAN_PRELOAD =
  /^assets\/(AdminPage|UploadPage|ExpensePage|MountExplorerPage|FileRequestPage|LoginPrompt|PasteEditDialog|FileEditDialog|ConfirmDialog|AccessLogPanel)-[\w-]+\.js$/;

/**
 * What a dynamic import preloads beside the chunk it loads. LEAN_PRELOAD's chunks preload only their CSS (which
 * Vite loads through the same list): the names of their scripts would otherwise sit in the entry that every
 * visitor downloads, and without them the browser finds the scripts in the chunk's imports, a level at a time.
 */
const preloadedDependencies: ResolveModulePreloadDependenciesFn = (filename, deps, { hostType }) =>
  hostType === 'js' && LEAN_PRELOAD.test(filename) ? deps.filter((dep) => dep.endsWith('.css')) : deps;

/**
 * A modulepreload link in index.html for React DOM's chunk, which the entry imports dynamically (src/app/main.tsx):
 * it downloads beside the entry, as a static import would, but is evaluated in a task of its own.
 */
function preloadReactDom(): Plugin {
  return {
    name: 'clipstash:preload-react-dom',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_, context) {
        const chunk = Object.values(context.bundle ?? {}).find((output) => output.type === 'chunk' && output.name === 'react-dom');
        if (!chunk) throw new Error('no react-dom chunk to preload');
        return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

/**
 * The service worker precaches the app shell only: index.html, what it loads, what loads once the page has
 * settled, the language catalogs, icons and the manifest. Page chunks are cached by src/sw.ts when first loaded,
 * so a page never opened is unavailable offline.
 */
function appShellOnly<T extends { url: string }>(entries: T[]) {
  const html = readFileSync(new URL('dist/index.html', import.meta.url), 'utf8');
  const shell = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]));
  // Dexie too: the offline cache loads it once the page has settled, maybe before the worker controls the page.
  // Not the couriers' service worker: a service worker's script is never fetched through another one.
  const keep = (url: string) =>
    (!url.startsWith('assets/') && url !== 'courier-sw.js') ||
    shell.has(url) ||
    settledChunks.has(url) ||
    /^assets\/(?:messages|visitor|dexie)-[\w-]+\.js$/.test(url);
  return { manifest: entries.filter((entry) => keep(entry.url)) };
}

/** What the unit projects share. */
const unitTests = {
  // Starts a throw-away PostgreSQL only when TEST_DATABASE=postgres (the server files' second run).
  globalSetup: ['tests/fixtures/postgres-setup.ts'],
  environment: 'node',
  setupFiles: ['tests/fixtures/indexeddb.ts'],
  // Password hashing (scrypt) and database writes are CPU-bound: a busy CI machine must not turn a slow pass into a
  // time-out.
  testTimeout: 20_000,
  // Vitest's default is one worker fewer than the cores: one on CI's two. Much of a server test waits on sockets and
  // disks, so two files at a time use the machine better.
  maxWorkers: 2,
};

export default defineConfig({
  plugins: [
    noteSettledChunks(),
    preloadReactDom(),
    sharePages.plugin,
    react(),
    linguiMacro(),
    lingui(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false, // src/lib/service-worker.ts registers it, for the update-prompt machine
      manifest: {
        id: '/',
        name: 'Clipstash',
        short_name: 'Clipstash',
        description: 'Self-hosted online clipboard: share text and files by short link.',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // Light; index.html's theme-color metas carry the dark variant (#1a1e24 on #111418).
        theme_color: '#2457c5',
        background_color: '#f6f7f9',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // Installed, the app is in the system's share sheet: text and links open in the editor, files on the upload
        // page (the service worker takes the POST: src/sw.ts).
        share_target: {
          action: SHARE_TARGET_PATH,
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { ...SHARE_TARGET_FIELDS, files: [{ name: SHARE_TARGET_FIELDS.files, accept: ['*/*'] }] },
        },
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg}'], // + the manifest and its icons, which the plugin adds
        manifestTransforms: [appShellOnly],
      },
      integration: {
        // The worker's own build: as quiet as the app's, and in rolldown's words (one file, no code splitting).
        configureCustomSWViteBuild(config) {
          config.logLevel = 'warn';
          const output = config.build?.rollupOptions?.output;
          if (output && !Array.isArray(output)) {
            delete output.inlineDynamicImports;
            Object.assign(output, { codeSplitting: false });
          }
        },
      },
    }),
    // Last: .br and .gz beside every built text file, the service worker included, for the server to negotiate.
    precompress(),
  ],
  resolve: {
    alias: [
      // React 19 has useSyncExternalStore: the shim (wouter's, @xstate/react's) would only carry its stand-in for
      // React 17 into every first load. The package's own entries take React's.
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
    ],
  },
  worker: { format: 'es' },
  server: { proxy: { '/api': 'http://localhost:8787' } },
  build: {
    target: 'es2022',
    // Browsers without modulepreload (Safari before 17) ignore the hints and load modules as they are imported:
    // a polyfill in every visitor's entry would only make them earlier there.
    modulePreload: { polyfill: false, resolveDependencies: preloadedDependencies },
    sourcemap: true,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            // A chunk of its own with a known name, for the service worker's precache (appShellOnly).
            { name: 'dexie', test: /[\\/]node_modules[\\/]dexie[\\/]/ },
            // What the entry imports statically (React, the router, Lingui, the shell, Vite's preload helper) in the
            // entry's chunk, whatever lazily loaded chunks share it: left to itself, rolldown splits those modules into
            // small chunks of their own, and each costs every first load a request (about half a KB of headers).
            { name: 'index', tags: ['$initial'], test: (id) => !REACT_DOM.test(id), priority: 4 },
            // React DOM apart from the entry: the entry imports it dynamically, so that evaluating it is a task of its
            // own. XState apart from the entry: a share's page renders before the machines load (src/app/actors.tsx).
            { name: 'react-dom', test: REACT_DOM, priority: 3, includeDependenciesRecursively: false },
            { name: 'xstate', test: /[\\/]node_modules[\\/](xstate|@xstate)[\\/]/, priority: 1 },
            // Markdown rendering and sanitising, a chunk of its own: the share pages render with it at once, the
            // home page loads it once something is typed. Only these modules: what they import is shared with the
            // entry (React, Vite's preload helper) and with pages that preview files (the code colouring). The
            // parser (marked) runs in a worker, DOMPurify only where the browser has no sanitizer: both load apart
            // (src/lib/markdown/parse.ts, sanitize.ts). The prefix of a paste's ids (contract/user-content.ts) is
            // here too, not with the parser that also uses it: a share's page loads no parser.
            {
              name: 'markdown-view',
              test: /[\\/](src[\\/](lib[\\/]markdown[\\/](render|sanitize|parse)\.ts|components[\\/]MarkdownView\.tsx)|contract[\\/]user-content\.ts)$/,
              priority: 1,
              includeDependenciesRecursively: false,
            },
            // The Markdown parser where the page parses itself (no worker): named, so that a test can tell it apart.
            { name: 'markdown-parser', test: /[\\/]contract[\\/]markdown\.ts$|[\\/]node_modules[\\/]marked[\\/]/, priority: 1 },
            ...sharePages.groups,
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          ...unitTests,
          include: ['{contract,server,machines,workers,src}/**/*.test.{ts,tsx}'],
          exclude: [
            ...configDefaults.exclude,
            '**/*.isolated.test.{ts,tsx}',
            // The storage drivers' own tests (disks, s3rver, WebDAV, SFTP and FTP servers) touch no database, and
            // WebDAV's conformance and the remote mounts' round trips test protocols over the records other files
            // test: on PostgreSQL they would only run again.
            ...(process.env.TEST_DATABASE === 'postgres'
              ? ['server/storage/**', 'server/features/webdav/litmus.test.ts', 'server/features/fs/remote-mounts.test.ts']
              : []),
          ],
          // A worker keeps the modules it loaded from one file to the next: importing the server anew for each of
          // 190 files was a third of the suite's time. A file that mocks a module runs apart (unit-isolated).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Files that replace a module with vi.mock: that needs the module loaded afresh for them.
          name: 'unit-isolated',
          ...unitTests,
          include: ['{contract,server,machines,workers,src}/**/*.isolated.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          // Several server processes on one throw-away PostgreSQL and one s3rver.
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/integration/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page's picture or a setting read after a navigation comes in a second or two when both cores are busy:
          // vitest's 1 s for expect.poll failed such waits in full runs (files, photo-privacy), never alone.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: true,
          maxWorkers: 2,
          // A worker keeps Playwright, axe and the harness loaded from one file to the next: importing them anew for
          // each of 42 files took over 2 minutes of CPU. Each file still starts its own server and browser.
          isolate: false,
        },
      },
    ],
  },
});
