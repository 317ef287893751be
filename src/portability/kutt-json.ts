import { TokenParser, Tokenizer, TokenType, type ParsedTokenInfo } from '@streamparser/json';
import { ImportFormatError } from './import-candidate.js';
import { ImportLimitError, MAX_JSON_DEPTH, type ImportLimits } from './import-limits.js';
import { quoted } from './parse-fields.js';

const OPENERS = new Set([TokenType.LEFT_BRACE, TokenType.LEFT_BRACKET]);
const CLOSERS = new Set([TokenType.RIGHT_BRACE, TokenType.RIGHT_BRACKET]);

/**
 * Kutt's JSON (`[{…}, …]` or `{"data": [{…}, …], "total": …}`) one link at a time, as a stream:
 * only the link being read is held, never deeper than MAX_JSON_DEPTH nor larger than
 * `maxRowBytes`, and a top-level value other than `data` may not be a list or an object.
 */
export async function* kuttJsonItems(chunks: AsyncIterable<Buffer>, limits: ImportLimits): AsyncGenerator<unknown> {
  const tokenizer = new Tokenizer();
  const shape = new DocumentShape(limits.maxRowBytes);
  let parser: TokenParser | undefined;
  let failure: Error | undefined;
  const ready: unknown[] = [];
  tokenizer.onError = (error) => { failure ??= error; };
  tokenizer.onToken = (info) => {
    if (failure) return;
    parser ??= shape.start(info, (p) => {
      p.onValue = ({ value }) => ready.push(value);
      p.onError = (error) => { failure ??= error; };
    });
    shape.follow(info);
    parser.write(info);
  };
  let bytes = 0;
  const drain = function* () {
    if (failure) throw asImportError(failure);
    yield* ready.splice(0);
  };
  for await (const chunk of chunks) {
    tokenizer.write(chunk);
    bytes += chunk.length;
    if (failure) throw asImportError(failure);
    shape.checkOpenItem(bytes);
    yield* drain();
  }
  if (parser === undefined) throw new ImportFormatError('The file is not valid JSON.');
  if (!tokenizer.isEnded) tokenizer.end();
  // A document cut short ends the tokenizer cleanly between two tokens: only the parser knows.
  if (!failure && !parser.isEnded) parser.end();
  yield* drain();
  shape.checkEnded();
}

/** Follows the tokens: how deep they are, under which top-level key, and where the current link began. */
class DocumentShape {
  private depth = 0;
  private rootIsObject = false;
  private rootKey: string | undefined;
  private expectingKey = false;
  private sawList = false;
  private itemStart = 0;

  constructor(private readonly maxRowBytes: number) {}

  start(first: ParsedTokenInfo, wire: (parser: TokenParser) => void): TokenParser {
    if (!OPENERS.has(first.token)) throw new ImportFormatError('The JSON is neither a list of links nor Kutt\'s {"data": [...]}.');
    this.rootIsObject = first.token === TokenType.LEFT_BRACE;
    const parser = new TokenParser({ paths: [this.rootIsObject ? '$.data.*' : '$.*'], keepStack: false });
    wire(parser);
    return parser;
  }

  follow({ token, value, offset }: ParsedTokenInfo): void {
    if (OPENERS.has(token)) {
      if (this.rootIsObject && this.depth === 1) {
        if (this.rootKey !== 'data' || token !== TokenType.LEFT_BRACKET) {
          throw new ImportFormatError(`The JSON is neither a list of links nor Kutt's {"data": [...]}: only "data" may hold a list, not ${quoted(this.rootKey ?? '')}.`);
        }
        this.sawList = true;
      }
      if (!this.rootIsObject && this.depth === 0) this.sawList = true;
      this.depth += 1;
      if (this.depth > MAX_JSON_DEPTH) throw new ImportFormatError(`The JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    } else if (CLOSERS.has(token)) {
      this.depth -= 1;
    }
    if (this.rootIsObject && this.depth === 1) {
      if (token === TokenType.LEFT_BRACE || token === TokenType.COMMA) this.expectingKey = true;
      else if (token === TokenType.STRING && this.expectingKey) [this.rootKey, this.expectingKey] = [String(value), false];
    }
    // Between two links (or at the top): whatever came since the last link began is one link's bytes.
    if (this.depth <= (this.rootIsObject ? 2 : 1)) {
      this.checkOpenItem(offset);
      this.itemStart = offset;
    }
  }

  checkOpenItem(bytesSoFar: number): void {
    if (bytesSoFar - this.itemStart > this.maxRowBytes) {
      throw new ImportLimitError(`A link in the JSON is larger than ${this.maxRowBytes} bytes (IMPORT_MAX_ROW_BYTES).`);
    }
  }

  checkEnded(): void {
    if (!this.sawList) throw new ImportFormatError('The JSON is neither a list of links nor Kutt\'s {"data": [...]}.');
  }
}

function asImportError(error: Error): Error {
  if (error instanceof ImportFormatError || error instanceof ImportLimitError) return error;
  return new ImportFormatError(`The file is not valid JSON: ${error.message}`);
}
