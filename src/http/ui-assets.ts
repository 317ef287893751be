import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The encodings the UI build writes beside each file (web/vite.config.ts), in order of preference. */
export const PRECOMPRESSED_ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number];
const SUFFIXES: Record<ContentEncoding, string> = { br: '.br', gzip: '.gz' };

/** A built file of the web UI, read once at start-up: the whole UI is a few hundred kilobytes. */
export interface UiFile {
  readonly body: Buffer;
  readonly contentType: string;
  /** The same bytes compressed at build time, for the encodings the build wrote (none for small files). */
  readonly encoded: ReadonlyMap<ContentEncoding, Buffer>;
}

export interface UiBuild {
  readonly index: UiFile;
  /** Hashed files under `/assets/`, by their path (`/assets/index-3f2a.js`). */
  readonly assets: ReadonlyMap<string, UiFile>;
  /** `page.css`, the redirect failure pages' stylesheet (src/http/redirect-pages.ts), served at a fixed path. */
  readonly recipientStylesheet: UiFile | undefined;
  /** A short digest of that stylesheet, which the pages add to its URL so that a new build is fetched anew. */
  readonly recipientStylesheetVersion: string | undefined;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The repository root, from src/http (tsx) or dist/src/http (compiled) alike: the first folder up with a package.json. */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

/** Where `vite build` writes the UI (web/vite.config.ts). */
export const UI_BUILD_DIR = path.join(projectRoot(), 'web', 'dist');

const isPrecompressed = (name: string) => Object.values(SUFFIXES).some((suffix) => name.endsWith(suffix));

function readUiFile(file: string, contentType: string): UiFile {
  const encoded = new Map<ContentEncoding, Buffer>();
  for (const encoding of PRECOMPRESSED_ENCODINGS) {
    const variant = file + SUFFIXES[encoding];
    if (fs.existsSync(variant)) encoded.set(encoding, fs.readFileSync(variant));
  }
  return { body: fs.readFileSync(file), contentType, encoded };
}

/** The built UI, or undefined when it has not been built (npm start and npm test build it first). */
export function loadUiBuild(dir: string = UI_BUILD_DIR): UiBuild | undefined {
  const indexPath = path.join(dir, 'index.html');
  if (!fs.existsSync(indexPath)) return undefined;
  const assetsDir = path.join(dir, 'assets');
  const assets = new Map<string, UiFile>();
  for (const name of fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir) : []) {
    if (isPrecompressed(name)) continue;
    const contentType = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    assets.set(`/assets/${name}`, readUiFile(path.join(assetsDir, name), contentType));
  }
  const stylesheetPath = path.join(dir, 'page.css');
  const recipientStylesheet = fs.existsSync(stylesheetPath) ? readUiFile(stylesheetPath, CONTENT_TYPES['.css']!) : undefined;
  return {
    index: readUiFile(indexPath, 'text/html; charset=utf-8'),
    assets,
    recipientStylesheet,
    recipientStylesheetVersion: recipientStylesheet && crypto.createHash('sha256').update(recipientStylesheet.body).digest('hex').slice(0, 10),
  };
}
