import { ImportEncodingError } from './import-limits.js';

/**
 * The same bytes, chunk by chunk, once each is known to be UTF-8 (a character cut between chunks
 * is checked with the next one). The readers decode later, and would replace bad bytes silently.
 */
export async function* utf8Checked(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      decoder.decode(bytes, { stream: true });
      yield bytes;
    }
    decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw new ImportEncodingError();
    throw error;
  }
}
