/** A configuration an operator must fix: every problem found, one line each (src/config.ts collects them). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    // One self-contained line per problem: log collectors read lines, not paragraphs.
    super(problems.map((problem) => `Invalid configuration: ${problem}`).join('\n'));
    this.name = 'ConfigError';
  }
}
