import { ImportLimitError } from './import-limits.js';

/**
 * Lines of UTF-8 text, each at most `maxBytes` long: unlike readline, a file that is one long
 * line is refused once it passes the limit instead of being held whole.
 */
export async function* boundedLines(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, end);
      checkLength(pendingBytes + piece.length, ++lineNumber, maxBytes);
      yield Buffer.concat([...pending, piece]).toString('utf8').replace(/\r$/, '');
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    checkLength(pendingBytes + rest.length, lineNumber + 1, maxBytes);
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8').replace(/\r$/, '');
}

function checkLength(bytes: number, lineNumber: number, maxBytes: number): void {
  if (bytes > maxBytes) throw new ImportLimitError(`Line ${lineNumber} is longer than ${maxBytes} bytes (IMPORT_MAX_ROW_BYTES).`);
}
