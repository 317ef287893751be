import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const JWT_SECRET_FILE = 'jwt-secret';
const MIN_SECRET_LENGTH = 32;

/**
 * The embedded-mode signing secret: read from DATA_DIR/jwt-secret, or made once (64 random bytes,
 * base64url) and kept there with mode 0600. `wx` makes creation exclusive, so two processes starting
 * together agree on one secret: the loser of the race reads the winner's file. The text is used as
 * the key exactly like JWT_SECRET, so it can be moved into JWT_SECRET later without logging anyone out.
 */
export async function loadOrCreateJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, JWT_SECRET_FILE);
  await fs.mkdir(dataDir, { recursive: true });
  const fresh = randomBytes(64).toString('base64url');
  try {
    await fs.writeFile(file, fresh, { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readExisting(file);
}

async function readExisting(file: string): Promise<string> {
  // The other process may have created the file but not written it yet.
  for (let attempt = 0; attempt < 40; attempt++) {
    const secret = (await fs.readFile(file, 'utf8')).trim();
    if (secret.length >= MIN_SECRET_LENGTH) return secret;
    await sleep(25);
  }
  throw new Error(`${file} holds fewer than ${MIN_SECRET_LENGTH} characters; delete it to have a new secret made (everyone will have to sign in again), or set JWT_SECRET.`);
}
