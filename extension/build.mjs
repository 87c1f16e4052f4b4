// `npm run build:extension`: the Chrome (Manifest V3) extension, unpacked in extension/dist/ (load it
// with chrome://extensions → Load unpacked) and zipped for the Chrome Web Store in
// extension/freightdesk-extension.zip. Two Vite builds: the service worker, popup and options page
// as ES modules, and the board's content script as one classic script (Chrome does not load
// content scripts as modules). The server address comes from EXTENSION_API_URL, else PUBLIC_URL,
// else http://localhost:8787; the options page can change it later.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { zipSync } from 'fflate';
import { build } from 'vite';

const root = import.meta.dirname;
const src = path.join(root, 'src');

/** The origin an address names, or an error that says what is wrong with it. */
function originOf(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`EXTENSION_API_URL / PUBLIC_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`The server address must be http(s): ${url}`);
  return parsed.origin;
}

/** The manifest: what the extension may do, and nothing more. */
function manifestFor(apiOrigin, version) {
  const icons = { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' };
  return {
    manifest_version: 3,
    name: 'FreightDesk for DAT and Truckstop',
    short_name: 'FreightDesk',
    version,
    description: "Your team's broker flags on DAT's and Truckstop's load boards; calls, e-mails and loads logged to FreightDesk with one click.",
    minimum_chrome_version: '120',
    icons,
    action: { default_title: 'FreightDesk', default_popup: 'popup/popup.html', default_icon: icons },
    options_ui: { page: 'options/options.html', open_in_tab: true },
    background: { service_worker: 'background.js', type: 'module' },
    // storage: the session, filters and queue; alarms: the 5-minute filter sync and the queue's retries
    permissions: ['storage', 'alarms'],
    // the API is called from the service worker only, with a host permission (the API opens no CORS)
    host_permissions: [`${apiOrigin}/*`],
    // another server set in the options is asked for when it is saved
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // the boards' pages only: DAT One, and Truckstop's app origin, whose single-page app reaches its
    // results page (/app/search/loads) without a page load (docs/decisions/0173-truckstop-board.md)
    content_scripts: [
      { matches: ['https://one.dat.com/*', 'https://main.truckstop.com/*'], js: ['content.js'], css: ['content.css'], run_at: 'document_idle' },
    ],
  };
}

function filesOf(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesOf(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/**
 * Builds the extension into `outDir` for the server at `apiUrl`; with `zip`, also the store zip.
 * Answers the manifest it wrote.
 */
export async function buildExtension({ apiUrl, outDir = path.join(root, 'dist'), zip = path.join(root, 'freightdesk-extension.zip'), quiet = false } = {}) {
  const apiOrigin = originOf(apiUrl ?? process.env.EXTENSION_API_URL ?? process.env.PUBLIC_URL ?? 'http://localhost:8787');
  const { version } = JSON.parse(fs.readFileSync(path.join(root, '..', 'package.json'), 'utf8'));
  const shared = {
    configFile: false,
    root: src,
    publicDir: path.join(root, 'public'),
    logLevel: quiet ? 'warn' : 'info',
    define: { __API_URL__: JSON.stringify(apiOrigin) },
  };
  await build({
    ...shared,
    base: '/',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // the preload helper touches `document`, which a service worker has not
      modulePreload: false,
      rollupOptions: {
        input: {
          background: path.join(src, 'background/index.ts'),
          popup: path.join(src, 'popup/popup.html'),
          options: path.join(src, 'options/options.html'),
        },
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', assetFileNames: 'assets/[name]-[hash][extname]' },
      },
    },
  });
  await build({
    ...shared,
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: false,
      lib: { entry: path.join(src, 'content/board.ts'), formats: ['iife'], name: 'FreightDeskBoard', fileName: () => 'content.js' },
    },
  });
  fs.copyFileSync(path.join(src, 'content/board.css'), path.join(outDir, 'content.css'));
  const manifest = manifestFor(apiOrigin, version);
  fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (zip) {
    const files = Object.fromEntries(filesOf(outDir).map((file) => [file, fs.readFileSync(path.join(outDir, file))]));
    fs.writeFileSync(zip, zipSync(files, { level: 9 }));
  }
  if (!quiet)
    console.log(
      `FreightDesk extension for ${apiOrigin}: ${path.relative(process.cwd(), outDir)}/ (load unpacked)${zip ? `, ${path.relative(process.cwd(), zip)} (Chrome Web Store)` : ''}`,
    );
  return manifest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildExtension().catch((err) => {
    console.error(err.message ?? err);
    process.exit(1);
  });
}
