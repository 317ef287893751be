import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';

/**
 * `.env.example` and docs/configuration.md name every variable the configuration reads, and the
 * value `.env.example` gives each (commented out) is its default. The names come from the code:
 * every name `loadConfig` asks an environment for, plus every name a `read.<kind>('NAME'…)` call in
 * src/config*.ts spells, in case a variable is only read when another is set.
 */
function namesAskedFor(): string[] {
  const asked = new Set<string>();
  const recording = new Proxy({}, {
    get(_target, key) {
      if (typeof key === 'string') asked.add(key);
      return undefined;
    },
  });
  loadConfig(recording);
  return [...asked];
}

function namesSpelledInConfigSources(): string[] {
  const files = fs.readdirSync('src').filter((name) => /^config.*\.ts$/.test(name));
  return files.flatMap((file) => [...fs.readFileSync(path.join('src', file), 'utf8')
    .matchAll(/\bread\.(?:string|optional|int|bool|duration|oneOf)\(\s*'([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1]!));
}

const READ_BY_CONFIG = [...new Set([...namesAskedFor(), ...namesSpelledInConfigSources()])].sort();

interface ExampleLine { name: string; value: string; isExample: boolean }

/** `# NAME=value` lines; a value under a `# Default:` or `# No default` comment is an example, not the default. */
function exampleLines(): ExampleLine[] {
  const lines = fs.readFileSync('.env.example', 'utf8').split('\n');
  return lines.flatMap((line, index) => {
    const match = /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return [];
    const above = lines[index - 1] ?? '';
    return [{ name: match[1]!, value: match[2]!.trim(), isExample: /^#\s*(Default:|No default)/.test(above) }];
  });
}

describe('.env.example and docs/configuration.md follow the configuration', () => {
  test('the names are found in the code', () => {
    assert.ok(READ_BY_CONFIG.length > 50, `only ${READ_BY_CONFIG.length} names found`);
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'METRICS_TOKEN']) assert.ok(READ_BY_CONFIG.includes(name), name);
  });

  test('.env.example names every variable the configuration reads, and no other', () => {
    const named = exampleLines().map((line) => line.name);
    assert.deepEqual(READ_BY_CONFIG.filter((name) => !named.includes(name)), [], 'add these to .env.example');
    assert.deepEqual(named.filter((name) => !READ_BY_CONFIG.includes(name)), [], 'no longer read: remove them from .env.example');
    assert.deepEqual(named.filter((name, index) => named.indexOf(name) !== index), [], 'named twice in .env.example');
  });

  test('every variable in .env.example is commented out, so copying the file changes nothing', () => {
    const active = fs.readFileSync('.env.example', 'utf8').split('\n').filter((line) => /^\s*[A-Z][A-Z0-9_]*=/.test(line));
    assert.deepEqual(active, []);
  });

  test('each value .env.example gives is the default, unless it is marked as an example', () => {
    const defaults = loadConfig({});
    for (const { name, value, isExample } of exampleLines()) {
      if (isExample || value === '') continue;
      assert.deepEqual(loadConfig({ [name]: value }), defaults, `${name}=${value} is not the default`);
    }
  });

  test('docs/configuration.md names every variable the configuration reads', () => {
    const documented = fs.readFileSync('docs/configuration.md', 'utf8');
    assert.deepEqual(READ_BY_CONFIG.filter((name) => !documented.includes(`\`${name}\``)), [],
      'add these to the table in docs/configuration.md');
  });
});
