/** Types of runtime-settings.mjs, for the benchmarks that start servers the way `npm start` does. */
export declare function serverRuntime(env?: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; execArgv: string[] };
