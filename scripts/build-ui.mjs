// The web UI's build (Vite, web/vite.config.ts) into web/dist, which the server serves.
//   node scripts/build-ui.mjs           build now
//   ensureUiBuilt()                     build only when web/dist is missing or older than its sources
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'web');
const builtIndex = path.join(webDir, 'dist', 'index.html');
const SOURCES = ['src', 'index.html', 'vite.config.ts'];

function newestMtime(file) {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce((newest, name) => Math.max(newest, newestMtime(path.join(file, name))), 0);
}

export function uiBuildIsCurrent() {
  if (!existsSync(builtIndex)) return false;
  const built = statSync(builtIndex).mtimeMs;
  return SOURCES.every((name) => newestMtime(path.join(webDir, name)) <= built);
}

export async function buildUi() {
  const { build } = await import('vite');
  await build({ configFile: path.join(webDir, 'vite.config.ts'), logLevel: 'warn' });
}

export async function ensureUiBuilt() {
  if (uiBuildIsCurrent()) return;
  console.log('Building the web UI…');
  await buildUi();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildUi();
