// Reads what scripts/file-durations-reporter.mjs wrote for each pass of `npm test` and prints every
// test file's duration, the slowest first, so that a file that grows slow is seen at the end of a run.
import fs from 'node:fs';

/** The lines one pass's reporter wrote; none when the pass never ran or wrote nothing. */
function readPass(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`.padStart(8);
}

/** `passes`: [{ label, file }] in the order they ran; prints one table across them. */
export function printFileDurations(passes, totalMs) {
  const rows = passes.flatMap(({ label, file }) => readPass(file).map((row) => ({ ...row, label })));
  if (rows.length === 0) return;
  rows.sort((a, b) => b.ms - a.ms);
  console.log('\n# Test files by duration, the slowest first (each file runs in a process of its own)');
  for (const row of rows) console.log(`# ${seconds(row.ms)}  ${row.label.padEnd(8)} ${row.file}${row.passed ? '' : '  (failed)'}`);
  for (const { label } of passes) {
    const ofPass = rows.filter((row) => row.label === label);
    if (ofPass.length === 0) continue;
    const total = ofPass.reduce((sum, row) => sum + row.ms, 0);
    console.log(`# ${label}: ${ofPass.length} files, ${seconds(total).trim()} of file time`);
  }
  console.log(`# the whole run took ${seconds(totalMs).trim()}`);
}
