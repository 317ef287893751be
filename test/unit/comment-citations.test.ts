import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { markdownDocuments, proseOf } from '../support/markdown-documents.js';

/**
 * The repository describes itself: a comment or a document cites an ADR (docs/adr/) or the code
 * map, never a document that is not in the repository (the product specification, a style or
 * reliability guide, seed data) nor a tracker's number, which a reader of a clone cannot open.
 */
const CITATIONS_FROM_OUTSIDE: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'a shared folder outside the repository', pattern: /\.\.\/shared\b/ },
  { what: 'the product specification or a guide kept outside', pattern: /\b(SPEC|STYLE|RELIABILITY)(\.md)?\b/ },
  { what: 'seed data kept outside', pattern: /\bseeds?(\/|\s+\d{3})/i },
  { what: 'a tracker number', pattern: /\b(issue|task)s?\s+#?\d+/i },
  // `owner/repo#12` names another project's public thread, which anyone can open.
  { what: 'a tracker number', pattern: /(^|[^\w/.-])#\d+\b/ },
];

/**
 * Files still citing from outside, waiting for their comments to be reworded: an entry that no
 * longer cites anything fails the test too, so the list only ever shrinks.
 */
const WAITING_TO_BE_REWORDED: readonly string[] = [];

function filesUnder(dir: string, extension: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, extension);
    return entry.name.endsWith(extension) ? [full] : [];
  });
}

/**
 * The text of every comment in a TypeScript or JavaScript file, with the line each starts on. The
 * comments are read around the parsed syntax tree's nodes: a bare scanner, without the parser's
 * context, takes a regular expression or a template literal for something else and loses the
 * comments after it.
 */
function commentsOf(text: string, fileName = 'comments.ts'): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const ranges = new Map<number, ts.CommentRange>();
  const collect = (position: number, read: typeof ts.getLeadingCommentRanges) => {
    for (const range of read(text, position) ?? []) ranges.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    collect(node.getFullStart(), ts.getLeadingCommentRanges);
    collect(node.getEnd(), ts.getTrailingCommentRanges);
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...ranges.values()].sort((a, b) => a.pos - b.pos).map((range) => ({
    line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
    text: text.slice(range.pos, range.end),
  }));
}

/** `file:line: what (quoted)` for each citation from outside in `passages`. */
function citationsIn(file: string, passages: Array<{ line: number; text: string }>): string[] {
  return passages.flatMap(({ line, text }) => text.split('\n').flatMap((row, offset) =>
    CITATIONS_FROM_OUTSIDE.filter(({ pattern }) => pattern.test(row))
      .map(({ what, pattern }) => `${file}:${line + offset}: ${what} (${row.match(pattern)![0].trim()})`)));
}

/**
 * Outside src/ (the web UI, scripts, benchmarks, tests) comments do not cite the product
 * specification or a guide kept outside either: the rules are in docs/specification.md, the ADRs
 * and docs/architecture.md.
 */
const SPECIFICATION_FROM_OUTSIDE = CITATIONS_FROM_OUTSIDE.filter(({ pattern }) => pattern.test('SPEC section 1'));

function specificationCitationsOutsideSrc(): string[] {
  const files = ['web/src', 'scripts', 'bench', 'test', 'bin']
    .flatMap((dir) => ['.ts', '.tsx', '.mjs', '.mts'].flatMap((extension) => filesUnder(dir, extension)));
  return files.flatMap((file) => commentsOf(fs.readFileSync(file, 'utf8'), file).flatMap(({ line, text }) =>
    text.split('\n').flatMap((row, offset) => SPECIFICATION_FROM_OUTSIDE.filter(({ pattern }) => pattern.test(row))
      .map(({ what }) => `${file}:${line + offset}: ${what}`))));
}

function citationsFromOutside(): string[] {
  const sources = filesUnder('src', '.ts').flatMap((file) => citationsIn(file, commentsOf(fs.readFileSync(file, 'utf8'), file)));
  const documents = [...filesUnder('docs', '.md'), 'README.md']
    .flatMap((file) => citationsIn(file, [{ line: 1, text: fs.readFileSync(file, 'utf8') }]));
  return [...sources, ...documents];
}

describe('comments and documents cite what is in the repository', () => {
  test('no comment in src/, and no document in docs/ or README.md, cites a document outside the repository or a tracker number', () => {
    const found = citationsFromOutside();
    const fileOf = (entry: string) => entry.slice(0, entry.indexOf(':'));
    assert.deepEqual(found.filter((entry) => !WAITING_TO_BE_REWORDED.includes(fileOf(entry))), [],
      'cite an ADR (docs/adr/) or docs/architecture.md, or say the reason itself');
    assert.deepEqual(WAITING_TO_BE_REWORDED.filter((file) => !found.some((entry) => fileOf(entry) === file)), [],
      'no longer cites from outside: remove it from WAITING_TO_BE_REWORDED');
  });

  test('no comment in web/src, scripts, bench, test or bin cites the product specification or a guide kept outside', () => {
    assert.deepEqual(specificationCitationsOutsideSrc(), [], 'cite docs/specification.md or an ADR');
  });

  test('the patterns catch each kind of citation and let another project\'s thread through', () => {
    const cited = (text: string) => citationsIn('sample.ts', commentsOf(text)).length;
    for (const text of ['// as SPEC section 8 says', '/* see ../shared/notes */', '// RELIABILITY F-16', '// (seed 001)',
      '// issue 9 item 4', '// fixed in #12', '/** task 7 */', '// STYLE.md asks']) {
      assert.equal(cited(text), 1, text);
    }
    for (const text of ['// ADR 0016, "Visit ranges"', '// discord/discord-api-docs#1600', "const x = 'SPEC section 1'; // a string, not a comment",
      '// `#/settings` is a route', '// specification of the day']) {
      assert.equal(cited(text), 0, text);
    }
  });
});

/**
 * A path a document names (`src/…`, `docs/adr/0016`, `bench/redirect.ts`, `architecture.md`, a glob like
 * `src/storage/*-store.ts`) must name something in the repository, from the root or from the
 * document's folder: a file cited after it was renamed or removed sends the reader nowhere.
 */
const CITED_ROOTS = ['src', 'test', 'docs', 'scripts', 'bench', 'web', 'bin'];
/** Made by a build (`npm start`, `npm run build:ui`), so a document may name them before they exist. */
const GENERATED = /^(web\/)?dist(\/|$)/;
const CITED_PATH = new RegExp(String.raw`(?<![\w./-])((?:${CITED_ROOTS.join('|')})/[\w.*{},/-]*[\w*}]|[\w.-]+\.md)\b`, 'g');

function repositoryFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? [`${full}/`, ...repositoryFiles(full)] : [full];
  });
}

/** `{a,b}` and `*` as a regular expression; a citation without an extension (`docs/adr/0016`) stands for its file. */
function citationPattern(cited: string): RegExp {
  const escaped = cited.replace(/[.+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{([^}]*)\}/g, (_, options: string) => `(${options.split(',').join('|')})`)
    .replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}([-.][^/]*)?/?$`);
}

function citedPathsThatDoNotExist(files: readonly string[]): string[] {
  return markdownDocuments().flatMap((document) => proseOf(fs.readFileSync(document, 'utf8')).split('\n')
    .flatMap((line, index) => [...line.matchAll(CITED_PATH)].map((match) => ({ line: index + 1, cited: match[1]! })))
    .filter(({ cited }) => {
      if (GENERATED.test(cited)) return false;
      const candidates = [cited, path.join(path.dirname(document), cited)].map(citationPattern);
      return !files.some((file) => candidates.some((pattern) => pattern.test(file)));
    })
    .map(({ line, cited }) => `${document}:${line}: ${cited}`));
}

describe('documents name only files that exist', () => {
  test('every path README.md and docs/ name is in the repository', () => {
    assert.deepEqual(citedPathsThatDoNotExist(repositoryFiles('.')), [], 'a renamed or removed file: name the file as it is now');
  });

  test('the check finds renamed files and accepts ADR numbers, globs and paths from the document\'s folder', () => {
    const files = ['docs/adr/0016-analytics.md', 'docs/api.md', 'src/storage/cleanup-store.ts', 'src/storage/', 'bench/redirect.ts'];
    const exists = (cited: string, from = 'README.md') => [cited, path.join(path.dirname(from), cited)]
      .map(citationPattern).some((pattern) => files.some((file) => pattern.test(file)));
    assert.equal(exists('docs/adr/0016'), true);
    assert.equal(exists('src/storage/*-store.ts'), true);
    assert.equal(exists('src/storage/{job-lock,cleanup}-store.ts'), true);
    assert.equal(exists('bench/redirect'), true);
    assert.equal(exists('api.md', 'docs/operations.md'), true);
    assert.equal(exists('src/storage/reaper-store.ts'), false);
    assert.equal(exists('SPEC.md'), false);
    assert.equal(exists('docs/adr/0017'), false);
  });
});

