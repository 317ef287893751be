import readline from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from './cli-errors.js';

/** Reads one line from a terminal without echoing it; the prompt goes to stderr. */
function askHidden(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(prompt, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/**
 * The password never comes from an argument (it would sit in the shell history and in `ps`): on a
 * terminal it is asked for twice without echo; from a pipe, the first line of stdin is taken.
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const password = await readFirstLine(process.stdin);
    if (password === '') throw new UsageError('no password on stdin: pipe it in (printf %s "$PASSWORD" | linkforge user create EMAIL) or run on a terminal');
    return password;
  }
  const password = await askHidden('Password: ');
  if (await askHidden('Repeat the password: ') !== password) throw new UsageError('the two passwords differ');
  return password;
}
