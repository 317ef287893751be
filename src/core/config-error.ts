/** A configuration an operator must fix: every problem found, one line each (src/config.ts collects them). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    // One self-contained line per problem: log collectors read lines, not paragraphs.
    super(problems.map((problem) => `Invalid configuration: ${problem}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** A data path the process cannot use (DATA_DIR, a sqlite: DATABASE_URL): one line naming the path and what is wrong. */
export class DataPathError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`Cannot use ${path}: ${reason} (set by DATA_DIR or DATABASE_URL)`);
    this.name = 'DataPathError';
  }
}
