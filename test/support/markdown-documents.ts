import fs from 'node:fs';
import path from 'node:path';

/** README.md and every Markdown file under docs/, as paths from the repository root. */
export function markdownDocuments(): string[] {
  const under = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return under(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
  return ['README.md', ...under('docs')];
}

/** The text of a Markdown document with fenced code blocks blanked, line numbers kept. */
export function proseOf(text: string): string {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  }).join('\n');
}
