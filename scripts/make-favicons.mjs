#!/usr/bin/env node
// Renders brands/<key>/favicon.svg to PNG at 16, 32 and 48 px with the system
// Chromium (driven by playwright-core, never downloading a browser) and packs
// the three PNGs into brands/<key>/favicon.ico (PNG-in-ICO, valid since Vista).
//
// Usage: node scripts/make-favicons.mjs [brandKey ...]
//   With no arguments every folder under brands/ that has a favicon.svg is done.
//   CHROMIUM_PATH overrides the browser binary (default /usr/bin/chromium).

import { readFile, readdir, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const SIZES = [16, 32, 48];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BRANDS_DIR = path.join(ROOT, 'brands');
const EXECUTABLE = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const exists = (p) => access(p).then(() => true, () => false);

async function brandKeys(requested) {
  if (requested.length) return requested;
  const entries = await readdir(BRANDS_DIR, { withFileTypes: true });
  const keys = [];
  for (const e of entries) {
    if (e.isDirectory() && (await exists(path.join(BRANDS_DIR, e.name, 'favicon.svg')))) keys.push(e.name);
  }
  return keys.sort();
}

/** Reads width/height from a PNG's IHDR chunk. */
function pngSize(buf) {
  const sig = '89504e470d0a1a0a';
  if (buf.subarray(0, 8).toString('hex') !== sig) throw new Error('not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** Builds an ICO container (ICONDIR + ICONDIRENTRY[] + PNG payloads). */
function buildIco(pngs) {
  const HEADER = 6;
  const ENTRY = 16;
  const header = Buffer.alloc(HEADER);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: 1 = icon
  header.writeUInt16LE(pngs.length, 4); // image count

  const entries = [];
  let offset = HEADER + ENTRY * pngs.length;
  for (const png of pngs) {
    const { width, height } = pngSize(png);
    const entry = Buffer.alloc(ENTRY);
    entry.writeUInt8(width >= 256 ? 0 : width, 0);
    entry.writeUInt8(height >= 256 ? 0 : height, 1);
    entry.writeUInt8(0, 2); // colours in palette (0 = no palette)
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8); // size of image data
    entry.writeUInt32LE(offset, 12); // offset of image data
    entries.push(entry);
    offset += png.length;
  }
  return Buffer.concat([header, ...entries, ...pngs]);
}

async function renderPngs(page, svg) {
  const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  const pngs = [];
  for (const size of SIZES) {
    await page.setViewportSize({ width: Math.max(size, 64), height: Math.max(size, 64) });
    await page.setContent(
      `<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent}` +
        `img{display:block;width:${size}px;height:${size}px}</style></head>` +
        `<body><img id="i" alt="" src="${dataUrl}"></body></html>`,
    );
    await page.waitForFunction(() => {
      const img = document.getElementById('i');
      return img.complete && img.naturalWidth > 0;
    });
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
      type: 'png',
    });
    const dim = pngSize(png);
    if (dim.width !== size || dim.height !== size) {
      throw new Error(`expected ${size}x${size} PNG, got ${dim.width}x${dim.height}`);
    }
    pngs.push(png);
  }
  return pngs;
}

async function main() {
  const keys = await brandKeys(process.argv.slice(2));
  if (!keys.length) {
    console.error('No brands with a favicon.svg found under', BRANDS_DIR);
    process.exit(1);
  }
  const browser = await chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const key of keys) {
      const dir = path.join(BRANDS_DIR, key);
      const svg = await readFile(path.join(dir, 'favicon.svg'), 'utf8');
      const pngs = await renderPngs(page, svg);
      const ico = buildIco(pngs);
      const out = path.join(dir, 'favicon.ico');
      await writeFile(out, ico);
      console.log(`${path.relative(ROOT, out)}: ${SIZES.join('/')} px, ${ico.length} bytes`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
