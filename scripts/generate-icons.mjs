// Renders the PWA icons in public/ from public/favicon.svg with the browser the tests use:
// `node scripts/generate-icons.mjs` after changing the favicon. The PNGs are committed; this runs by hand only.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('public/favicon.svg', 'utf8');
const background = /fill="(#[0-9a-fA-F]{6})"/.exec(svg)?.[1] ?? '#2457c5';

/** `any` icons are the favicon as drawn; maskable ones fill the square and keep the glyph in the 80 % safe zone. */
const icons = [
  { file: 'pwa-192x192.png', size: 192, maskable: false },
  { file: 'pwa-512x512.png', size: 512, maskable: false },
  { file: 'maskable-512x512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const { file, size, maskable } of icons) {
  const inner = maskable ? Math.round(size * 0.72) : size;
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<body style="margin:0;display:grid;place-items:center;width:${size}px;height:${size}px;background:${maskable ? background : 'transparent'}">
      <div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div>
    </body>`,
  );
  writeFileSync(`public/${file}`, await page.screenshot({ omitBackground: !maskable, type: 'png' }));
  console.log(`public/${file} (${size}×${size}${maskable ? ', maskable' : ''})`);
}
await browser.close();
