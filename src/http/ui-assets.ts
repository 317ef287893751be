import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A built file of the web UI, read once at start-up: the whole UI is a few hundred kilobytes. */
export interface UiFile {
  readonly body: Buffer;
  readonly contentType: string;
}

export interface UiBuild {
  readonly index: UiFile;
  /** Hashed files under `/assets/`, by their path (`/assets/index-3f2a.js`). */
  readonly assets: ReadonlyMap<string, UiFile>;
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

/** The built UI, or undefined when it has not been built (npm start and npm test build it first). */
export function loadUiBuild(dir: string = UI_BUILD_DIR): UiBuild | undefined {
  const indexPath = path.join(dir, 'index.html');
  if (!fs.existsSync(indexPath)) return undefined;
  const assetsDir = path.join(dir, 'assets');
  const assets = new Map<string, UiFile>();
  for (const name of fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir) : []) {
    const contentType = CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    assets.set(`/assets/${name}`, { body: fs.readFileSync(path.join(assetsDir, name)), contentType });
  }
  return { index: { body: fs.readFileSync(indexPath), contentType: 'text/html; charset=utf-8' }, assets };
}
