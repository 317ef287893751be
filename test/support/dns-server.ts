import dgram from 'node:dgram';
import type { TeardownScope } from './teardown.js';
import { onTeardown } from './teardown.js';

/** The records a test's DNS server answers: TXT strings and IPv4 addresses by name (lower-case, no trailing dot). */
export interface DnsRecords {
  readonly txt: Map<string, string[]>;
  readonly a: Map<string, string[]>;
}

const TYPE_A = 1;
const TYPE_TXT = 16;

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP), answering A and TXT questions from `records`
 * and NXDOMAIN for any name it has nothing for: what `DOMAIN_DNS_SERVERS` points verification at.
 */
export async function startDnsServer(scope: TeardownScope): Promise<{ readonly records: DnsRecords; readonly address: string }> {
  const records: DnsRecords = { txt: new Map(), a: new Map() };
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => socket.send(answer(query, records), peer.port, peer.address));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  onTeardown(scope, () => new Promise<void>((resolve) => socket.close(() => resolve())));
  return { records, address: `127.0.0.1:${socket.address().port}` };
}

function answer(query: Buffer, records: DnsRecords): Buffer {
  const { name, end } = readName(query, 12);
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const key = name.toLowerCase();
  const rdatas = type === TYPE_TXT ? (records.txt.get(key) ?? []).map(txtData)
    : type === TYPE_A ? (records.a.get(key) ?? []).map((ip) => Buffer.from(ip.split('.').map(Number)))
    : [];
  const known = records.txt.has(key) || records.a.has(key);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // the id
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2); // response, authoritative, RD echoed, NXDOMAIN when unknown
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const answers = rdatas.map((rdata) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(1, 6); // TTL
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! > 0) {
    const length = message[at]!;
    labels.push(message.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  return { name: labels.join('.'), end: at + 1 };
}

function txtData(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    chunks.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(chunks);
}
