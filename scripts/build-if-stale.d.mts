/** Types of build-if-stale.mjs, for the benchmarks that run the built CLI the way `npx linkforge` does. */
export declare function buildIfStale(root: string, entry: string): string;
