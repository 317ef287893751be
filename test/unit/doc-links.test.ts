import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { markdownDocuments, proseOf } from '../support/markdown-documents.js';

/**
 * Every relative link in README.md and docs/ leads somewhere: to a file or folder of the
 * repository, and, when it has a #fragment, to a heading of that Markdown file (GitHub's anchors).
 */

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOf(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** `[text](target)` and `![alt](target)` outside code, with the line each is on. */
export function linksOf(markdown: string): Array<{ line: number; target: string }> {
  return proseOf(markdown).split('\n').flatMap((text, index) => {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    return [...withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
      .map((match) => ({ line: index + 1, target: match[1]! }));
  });
}

function brokenLinks(): string[] {
  return markdownDocuments().flatMap((file) => {
    const markdown = fs.readFileSync(file, 'utf8');
    return linksOf(markdown).flatMap(({ line, target }) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
      const [rawPath = '', fragment] = target.split('#', 2) as [string, string | undefined];
      const linkedPath = decodeURIComponent(rawPath);
      const resolved = linkedPath === '' ? file : path.join(path.dirname(file), linkedPath);
      const where = `${file}:${line}: ${target}`;
      if (!fs.existsSync(resolved)) return [`${where} (no such file)`];
      if (fragment === undefined) return [];
      if (!resolved.endsWith('.md')) return [`${where} (a #fragment on a file that is not Markdown)`];
      return anchorsOf(fs.readFileSync(resolved, 'utf8')).has(fragment) ? [] : [`${where} (no such heading)`];
    });
  });
}

describe('links in README.md and docs/', () => {
  test('every relative link points to an existing file, and every #fragment to one of its headings', () => {
    assert.deepEqual(brokenLinks(), []);
  });

  test('anchors and links are read as GitHub reads them', () => {
    assert.deepEqual([...anchorsOf('# Put it online\n## The `linkforge` command\n## Scaled mode: PostgreSQL and Redis\n## Put it online\n```\n# not a heading\n```')],
      ['put-it-online', 'the-linkforge-command', 'scaled-mode-postgresql-and-redis', 'put-it-online-1']);
    assert.deepEqual(linksOf('[a](docs/api.md) ![b](x.png "t") `[c](d.md)` <https://e.org>\n```\n[f](g.md)\n```\n[h](#i)'),
      [{ line: 1, target: 'docs/api.md' }, { line: 1, target: 'x.png' }, { line: 5, target: '#i' }]);
  });
});
