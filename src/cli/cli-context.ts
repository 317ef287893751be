import fs from 'node:fs';
import { loadConfig, type Config } from '../config.js';
import { createDeps, type AppDeps } from '../deps.js';

/** Variables of a `.env` in the working directory, under those already set, as the server reads them. */
export function loadDotEnv(): void {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
}

/** The server's configuration, read the same way: environment variables and an optional `.env`. */
export function loadCliConfig(): Config {
  loadDotEnv();
  const config = loadConfig();
  for (const warning of config.warnings) console.error(`linkforge: ${warning}`);
  return config;
}

// Start-up and background problems go to stderr as one line each: stdout carries the command's output.
const stderrLogger = {
  info: () => {},
  warn: (details: object, message?: string) => console.error(`linkforge: ${message ?? JSON.stringify(details)}`),
  error: (details: object, message?: string) => console.error(`linkforge: ${message ?? JSON.stringify(details)}`),
};

/** A person is waiting: an unreachable PostgreSQL ends the command after this long (the server waits on). */
const REACH_WITHIN_MS = 5_000;

/**
 * Opens the composition root (migrating the database, as the server does), runs `work`, closes it.
 * `work` hands each command only the services bags it uses.
 */
export async function withDeps<T>(work: (deps: AppDeps) => Promise<T>): Promise<T> {
  const deps = await createDeps(loadCliConfig(), { logger: stderrLogger, reachWithinMs: REACH_WITHIN_MS });
  try {
    return await work(deps);
  } finally {
    await deps.close();
  }
}
