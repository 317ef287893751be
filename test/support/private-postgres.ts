import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';
import type { TestDatabase } from './postgres.js';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'linkforge';

export interface PrivatePostgres {
  readonly port: number;
  /** The one database on it, shaped like the shared server's test databases (for postgresEnv). */
  readonly database: TestDatabase;
  start(): Promise<void>;
  /** SIGSTOP on the postmaster and its children: a server that hangs, with its sockets open. */
  pause(): void;
  /** SIGCONT on exactly the processes `pause` stopped. */
  resume(): void;
  /** `pg_ctl stop -m fast`: open connections are ended, new ones refused. */
  stop(): Promise<void>;
  /** Runs one statement as the superuser, on the server's `postgres` database. */
  admin(statement: string): Promise<void>;
  /** Stops the server if it runs and deletes its directory; the scope it was started in calls it too. */
  remove(): Promise<void>;
}

/** PostgreSQL refuses to run as root, so every server binary runs as the `postgres` OS user. */
function asPostgres(binary: string, args: string[]) {
  return run('runuser', ['-u', 'postgres', '--', path.join(BIN, binary), ...args]);
}

/** The ids of the processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').filter((entry) => /^[0-9]+$/.test(entry)).flatMap((entry) => {
    try {
      // The fourth field of stat is the parent's id; the second, the name in parentheses, may hold spaces.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : [];
    } catch {
      return []; // the process ended while we looked
    }
  });
}

/**
 * A PostgreSQL server of the test's own, on a free loopback port, that it may stop and start
 * (the machine's shared server on 5432 is never touched). Durability is switched off: it only
 * has to be fast, and it is deleted when `scope` ends.
 */
export async function startPrivatePostgres(scope: TeardownScope): Promise<PrivatePostgres> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  fs.chownSync(root, uid, gid);
  const data = path.join(root, 'data');
  const port = await freePort();
  let running = false;
  let paused: number[] = [];

  const server: PrivatePostgres = {
    port,
    database: {
      name: DATABASE,
      url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
      drop: () => server.remove(),
    },
    pause() {
      const postmaster = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      // The postmaster first: once it is stopped it forks no new backends.
      paused = [postmaster, ...childrenOf(postmaster)];
      for (const pid of paused) process.kill(pid, 'SIGSTOP');
    },
    resume() {
      for (const pid of paused.reverse()) process.kill(pid, 'SIGCONT');
      paused = [];
    },
    async start() {
      await asPostgres('pg_ctl', ['start', '-w', '-D', data, '-l', path.join(root, 'server.log')]);
      running = true;
    },
    async stop() {
      await asPostgres('pg_ctl', ['stop', '-w', '-D', data, '-m', 'fast']);
      running = false;
    },
    async admin(statement) {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    },
    remove: once(async () => {
      server.resume();
      if (running) await server.stop();
      fs.rmSync(root, { recursive: true, force: true });
    }),
  };
  onTeardown(scope, server.remove);
  try {
    await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8']);
    fs.appendFileSync(path.join(data, 'postgresql.conf'), [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      '',
    ].join('\n'));
    await server.start();
    await server.admin(`create database ${DATABASE}`);
  } catch (error) {
    await server.remove();
    throw error;
  }
  return server;
}
