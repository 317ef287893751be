import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

/** The size habits, held by a test: small files, short functions, declarative tables excepted. */

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 60;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** A function whose body is one `return` of an object or array literal (or an arrow that is one). */
function isDeclarativeTable(node: ts.FunctionLikeDeclaration): boolean {
  const body = node.body;
  if (body === undefined) return false;
  const isLiteral = (expression: ts.Expression): boolean => {
    const inner = ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)
      ? expression.expression : expression;
    return ts.isObjectLiteralExpression(inner) || ts.isArrayLiteralExpression(inner);
  };
  if (!ts.isBlock(body)) return isLiteral(body);
  const [only] = body.statements;
  return body.statements.length === 1 && only !== undefined && ts.isReturnStatement(only)
    && only.expression !== undefined && isLiteral(only.expression);
}

function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) {
    const [first] = parent.arguments;
    const label = first !== undefined && ts.isStringLiteralLike(first) ? `'${first.text}'` : '…';
    return `${parent.expression.getText(source)}(${label})`;
  }
  return '(anonymous)';
}

/** Every function, method, accessor and arrow in `file` longer than the limit, as `file:name:lines`. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(declaration.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES && !isDeclarativeTable(declaration)) {
        found.push(`${file}:${functionName(declaration, source)}:${lines}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Known oversize places, waiting to be split: a file, or a `file:function`. An entry that is no
 * longer over its limit fails the test too, so the list only ever shrinks.
 */
const WAITING_TO_BE_SPLIT: readonly string[] = [
];

/** `entries` (`place:lines`) split into those not waiting, and the waiting places that are no longer found. */
function againstWaitingList(entries: readonly string[], kind: 'file' | 'function'): { unexpected: string[]; fixed: string[] } {
  const places = entries.map((entry) => entry.slice(0, entry.lastIndexOf(':')));
  const isFile = (place: string) => place.endsWith('.ts');
  return {
    unexpected: entries.filter((_, index) => !WAITING_TO_BE_SPLIT.includes(places[index]!)),
    fixed: WAITING_TO_BE_SPLIT.filter((place) => (kind === 'file') === isFile(place) && !places.includes(place)),
  };
}

describe('code shape (STYLE.md, "Habits")', () => {
  test(`no file in src/ is over ${MAX_FILE_LINES} lines`, () => {
    const long = sourceFiles('src').map((file) => `${file}:${lineCount(fs.readFileSync(file, 'utf8'))}`)
      .filter((entry) => Number(entry.split(':').at(-1)) > MAX_FILE_LINES);
    const { unexpected, fixed } = againstWaitingList(long, 'file');
    assert.deepEqual(unexpected, [], 'files over the limit: split them');
    assert.deepEqual(fixed, [], 'no longer over the limit: remove them from WAITING_TO_BE_SPLIT');
  });

  test(`no function in src/ is over ${MAX_FUNCTION_LINES} lines unless it is a declarative table`, () => {
    const long = sourceFiles('src').flatMap(longFunctions);
    const { unexpected, fixed } = againstWaitingList(long, 'function');
    assert.deepEqual(unexpected, [], 'functions over the limit: split them, or make a table a single returned literal');
    assert.deepEqual(fixed, [], 'no longer over the limit: remove them from WAITING_TO_BE_SPLIT');
  });

  test('a declarative table is one returned literal; anything else counts', () => {
    const tableLines = Array.from({ length: MAX_FUNCTION_LINES + 5 }, (_, i) => `    key${i}: ${i},`).join('\n');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-shape-')), 'sample.ts');
    fs.writeFileSync(file, [
      `export function table() {\n  return {\n${tableLines}\n  };\n}`,
      `export function work() {\n  const first = 1;\n  return {\n${tableLines}\n  };\n}`,
      `export const arrow = () => ({\n${tableLines}\n});`,
    ].join('\n'));
    try {
      assert.deepEqual(longFunctions(file).map((entry) => entry.split(':').at(-2)), ['work']);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
