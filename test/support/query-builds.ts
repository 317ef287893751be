import type { KyselyPlugin } from 'kysely';

/** A Kysely plugin that counts the queries built and compiled through it (a raw CompiledQuery is not). */
export function countingQueryBuilds(): { readonly plugin: KyselyPlugin; readonly built: () => number } {
  let built = 0;
  return {
    plugin: { transformQuery: ({ node }) => { built++; return node; }, transformResult: async ({ result }) => result },
    built: () => built,
  };
}
