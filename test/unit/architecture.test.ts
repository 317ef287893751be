import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/** STYLE.md's import rules, held by a test so that review does not have to. */

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((match) => match[1]!);
}

/** Imports of `file` that resolve into one of `folders` under src/, or name one of `packages`. */
function forbiddenImports(file: string, folders: string[], packages: RegExp): string[] {
  return importsOf(file).filter((specifier) => {
    if (packages.test(specifier)) return true;
    if (!specifier.startsWith('.')) return false;
    const target = path.relative('src', path.resolve(path.dirname(file), specifier));
    return folders.some((folder) => target === folder || target.startsWith(`${folder}/`) || target === `${folder}.js`);
  });
}

const ADAPTERS_AND_HTTP = ['storage', 'cache', 'http', 'deps', 'app', 'main', 'cli'];
const IO_PACKAGES = /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis|node:(fs|net|http|https|child_process|worker_threads))/;

describe('what may import what (STYLE.md)', () => {
  test('core/ imports nothing of ours outside core and nothing that does I/O', () => {
    for (const file of sourceFiles('src/core')) {
      assert.deepEqual(forbiddenImports(file, ['links', 'accounts', 'jobs', ...ADAPTERS_AND_HTTP, 'config'], IO_PACKAGES), [], file);
    }
  });

  test('use cases (links/, accounts/) never see adapters, Fastify or Kysely', () => {
    for (const file of [...sourceFiles('src/links'), ...sourceFiles('src/accounts')]) {
      assert.deepEqual(forbiddenImports(file, ADAPTERS_AND_HTTP, /^(fastify|@fastify\/|kysely|better-sqlite3|pg)$/), [], file);
    }
  });

  test('visits/ (recording and flushing) sees ports only: no adapter, HTTP, Fastify or Kysely', () => {
    for (const file of sourceFiles('src/visits')) {
      assert.deepEqual(forbiddenImports(file, [...ADAPTERS_AND_HTTP, 'links', 'accounts', 'jobs'], /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('http/ calls use cases and never touches storage or a concrete cache', () => {
    for (const file of sourceFiles('src/http')) {
      assert.deepEqual(forbiddenImports(file, ['storage', 'cache'], /^(kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('adapters (storage/, cache/) never import use cases, jobs or the HTTP layer', () => {
    for (const file of [...sourceFiles('src/storage'), ...sourceFiles('src/cache')]) {
      assert.deepEqual(forbiddenImports(file, ['links', 'jobs', 'visits', 'http', 'deps', 'app', 'main', 'cli'], /^(fastify|@fastify\/)/), [], file);
      // The accounts' port (account-types.ts) is theirs to implement; the use cases are not.
      const accounts = importsOf(file).filter((specifier) => specifier.includes('/accounts/') && !specifier.endsWith('/accounts/account-types.js'));
      assert.deepEqual(accounts, [], file);
    }
  });

  test('jobs/ works through ports: no storage, cache, HTTP layer or use case, no database driver', () => {
    for (const file of sourceFiles('src/jobs')) {
      assert.deepEqual(forbiddenImports(file, ['links', 'accounts', ...ADAPTERS_AND_HTTP], /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('logging/ is a leaf: it imports nothing of ours outside logging, and no framework or storage', () => {
    for (const file of sourceFiles('src/logging')) {
      assert.deepEqual(forbiddenImports(file, ['core', 'links', 'accounts', 'jobs', ...ADAPTERS_AND_HTTP, 'config'], /^(fastify|@fastify\/|kysely|better-sqlite3|pg)$/), [], file);
    }
  });

  test('portability/ (the import and export formats) is pure mapping: core types only, no storage, HTTP or files', () => {
    for (const file of sourceFiles('src/portability')) {
      assert.deepEqual(forbiddenImports(file, ['links', 'accounts', 'jobs', 'visits', ...ADAPTERS_AND_HTTP, 'config'], IO_PACKAGES), [], file);
    }
  });

  test('cli/ reuses deps.ts and the use cases, never the HTTP layer (only `serve` loads main.ts)', () => {
    for (const file of sourceFiles('src/cli')) {
      assert.deepEqual(forbiddenImports(file, ['http', 'app', 'storage', 'cache'], /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('metrics/ is an adapter of core ports: no use case, job, HTTP layer, storage or cache', () => {
    for (const file of sourceFiles('src/metrics')) {
      assert.deepEqual(forbiddenImports(file, ['links', 'accounts', 'jobs', 'visits', 'logging', 'config', ...ADAPTERS_AND_HTTP], /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('only metrics/ imports prom-client: everything else counts through core/metrics-ports.ts', () => {
    const importers = sourceFiles('src').filter((file) => importsOf(file).some((specifier) => specifier.startsWith('prom-client')));
    assert.ok(importers.length > 0);
    assert.deepEqual(importers.filter((file) => !file.startsWith(path.join('src', 'metrics') + path.sep)), []);
  });

  test('web/ (the browser UI) is a client of the JSON API only: it imports nothing from outside web/ but packages, and src/ never imports web/', () => {
    const webFiles = fs.readdirSync('web/src', { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name)).map((name) => path.join('web', 'src', name));
    assert.ok(webFiles.length > 0);
    for (const file of webFiles) {
      const outside = importsOf(file).filter((specifier) => specifier.startsWith('node:')
        || (specifier.startsWith('.') && path.relative('web', path.resolve(path.dirname(file), specifier)).startsWith('..')));
      assert.deepEqual(outside, [], file);
    }
    for (const file of sourceFiles('src')) {
      assert.deepEqual(importsOf(file).filter((specifier) => /(^|\/)web\//.test(specifier)), [], file);
    }
  });

  test('only config.ts reads the environment', () => {
    const readers = sourceFiles('src').filter((file) => /process\.env\b/.test(fs.readFileSync(file, 'utf8')));
    assert.deepEqual(readers, [path.join('src', 'config.ts')]);
  });
});
