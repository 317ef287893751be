import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

/** docs/architecture.md's import rules, held by a test so that review does not have to. */

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

  test('use cases (links/, accounts/, admin/, webhooks/) never see adapters, Fastify or Kysely', () => {
    for (const file of [...sourceFiles('src/links'), ...sourceFiles('src/accounts'), ...sourceFiles('src/admin'), ...sourceFiles('src/webhooks')]) {
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
      // The accounts' port lives in core/ (core/account-ports.ts): nothing of accounts/ is theirs to import.
      assert.deepEqual(importsOf(file).filter((specifier) => specifier.includes('/accounts/')), [], file);
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

  test('mcp/ is a client of the HTTP API like web/: none of the server\'s layers, use cases or drivers (ADR 0033)', () => {
    const files = sourceFiles('src/mcp');
    assert.ok(files.length > 0);
    for (const file of files) {
      assert.deepEqual(forbiddenImports(file, ['core', 'links', 'accounts', 'admin', 'jobs', 'visits', 'portability', ...ADAPTERS_AND_HTTP], IO_PACKAGES), [], file);
    }
  });

  test('sso/ is an adapter of core ports: no use case, job, HTTP layer, storage or cache', () => {
    for (const file of sourceFiles('src/sso')) {
      assert.deepEqual(forbiddenImports(file, ['links', 'accounts', 'jobs', 'visits', ...ADAPTERS_AND_HTTP], /^(fastify|@fastify\/|kysely|better-sqlite3|pg|ioredis)$/), [], file);
    }
  });

  test('only sso/ imports openid-client: everything else signs in through core/identity-ports.ts', () => {
    const importers = sourceFiles('src').filter((file) => importsOf(file).some((specifier) => specifier.startsWith('openid-client')));
    assert.ok(importers.length > 0);
    assert.deepEqual(importers.filter((file) => !file.startsWith(path.join('src', 'sso') + path.sep)), []);
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

/** Static and dynamic (`await import('./x.js')`) imports of our own files, as paths under src/ ending in .ts. */
function localImportsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const dynamic = [...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]!);
  return [...importsOf(file), ...dynamic]
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative('.', path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** The top-level folder a file of src/ belongs to, or the root file's own name (`deps`, `app` …). */
function moduleOf(file: string): string {
  const [first, ...rest] = path.relative('src', file).split(path.sep);
  // config.ts and deps.ts, and the config-*.ts and deps-*.ts files they are split into, are one module each.
  return rest.length > 0 ? first! : first!.replace(/\.ts$/, '').replace(/^(config|deps)-.*/, '$1');
}

/** One cycle of the graph, as the nodes along it (the first repeated at the end), or undefined. */
function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

function importGraph(nodeOf: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles('src')) {
    const from = nodeOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    for (const target of localImportsOf(file)) if (nodeOf(target) !== from) targets.add(nodeOf(target));
    graph.set(from, targets);
  }
  return graph;
}

/**
 * Each module of src/ (a top-level folder, or a root file) and the modules it may import: the
 * layers of docs/architecture.md, as an allow-list. A folder's subfolders (http/routes,
 * cli/commands) are part of it. A new folder needs a line here (the last test says so).
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  logging: [],
  config: ['core'],
  portability: ['core'],
  metrics: ['core'],
  storage: ['core'],
  cache: ['core', 'config'],
  visits: ['core', 'config'],
  jobs: ['core', 'config'],
  accounts: ['core', 'config'],
  links: ['core', 'accounts'],
  // The service operator's use cases: every workspace's users and links, the instance's counters.
  admin: ['core', 'links'],
  // A workspace's webhook endpoints and deliveries (ADR 0035); delivery itself is a job.
  webhooks: ['core', 'accounts'],
  http: ['core', 'config', 'logging', 'accounts', 'links', 'admin', 'webhooks', 'jobs', 'visits', 'portability'],
  deps: ['core', 'config', 'accounts', 'links', 'admin', 'webhooks', 'jobs', 'visits', 'metrics', 'storage', 'cache', 'geo', 'sso'],
  // The OpenID Connect relying party (openid-client), an adapter of core/identity-ports.ts.
  sso: ['core', 'config'],
  geo: ['core', 'config'],
  app: ['core', 'config', 'logging', 'http', 'deps'],
  // The MCP server (ADR 0033): tools over a running Linkforge's HTTP API, given its settings by config.ts.
  mcp: ['config'],
  // `serve` loads main.ts, which starts the server; `mcp` serves the tools of mcp/.
  cli: ['core', 'config', 'accounts', 'links', 'admin', 'jobs', 'portability', 'deps', 'main', 'mcp'],
  main: ['core', 'config', 'logging', 'http', 'app', 'deps', 'primary', 'heap-governor', 'tick-object-shape'],
  // Sets V8's old-generation growth from the resident size; started by main.ts.
  'heap-governor': [],
  // Keeps one of Node's tick objects alive so V8 keeps their hidden classes; called by main.ts.
  'tick-object-shape': [],
  // The process that forks WORKERS servers and passes signals on; it opens no database.
  primary: ['config', 'http'],
};

describe('the import graph of src/', () => {
  test('no two files of src/ import each other, directly or around a cycle', () => {
    assert.equal(findCycle(importGraph((file) => file))?.join(' -> '), undefined);
  });

  test('no two modules of src/ (folders and root files) import each other, directly or around a cycle', () => {
    assert.equal(findCycle(importGraph(moduleOf))?.join(' -> '), undefined);
  });

  test('every module imports only the modules its rule allows', () => {
    for (const file of sourceFiles('src')) {
      const allowed = MAY_IMPORT[moduleOf(file)] ?? [];
      const outside = localImportsOf(file).map(moduleOf).filter((target) => target !== moduleOf(file) && !allowed.includes(target));
      assert.deepEqual(outside, [], file);
    }
  });

  test('every folder and root file of src/ has a rule', () => {
    const modules = fs.readdirSync('src', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
      .map((entry) => (entry.isDirectory() ? entry.name : moduleOf(path.join('src', entry.name))));
    assert.deepEqual(modules.filter((name) => !(name in MAY_IMPORT)), []);
  });

  test('the cycle finder finds a cycle, and none in a chain', () => {
    const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
    assert.deepEqual(findCycle(graph({ a: ['b'], b: ['c'], c: ['a'] })), ['a', 'b', 'c', 'a']);
    assert.equal(findCycle(graph({ a: ['b'], b: ['c'], c: [] })), undefined);
  });
});
