import ipaddr from 'ipaddr.js';

/**
 * A MaxMind DB file (format 2.0, https://maxmind.github.io/MaxMind-DB/) holding a few networks, for
 * tests: an IPv6 tree of 24-bit records, IPv4 networks under ::/96 as MaxMind's own files have them.
 * npm has readers only (`maxmind`, `mmdb-lib`); MaxMind's writers are Go and Perl. The files are
 * read back by the `maxmind` package the app uses, so a mistake here fails the tests that use it.
 */
export type MmdbValue = string | number | readonly MmdbValue[] | { readonly [key: string]: MmdbValue };

interface TrieNode { children: [Child, Child] }
type Child = TrieNode | { readonly data: number } | undefined;

const RECORD_BYTES = 3;
const DATA_SEPARATOR = 16;
const METADATA_MARKER = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);

export function mmdbFile(databaseType: string, networks: Readonly<Record<string, MmdbValue>>): Buffer {
  const root: TrieNode = { children: [undefined, undefined] };
  const data: Buffer[] = [];
  let dataLength = 0;
  for (const [cidr, value] of Object.entries(networks)) {
    const encoded = encode(value);
    insert(root, ...bitsOf(cidr), { data: dataLength });
    data.push(encoded);
    dataLength += encoded.length;
  }
  const nodes = numbered(root);
  const nodeCount = nodes.size;
  const record = (child: Child): number => {
    if (child === undefined) return nodeCount;
    return 'data' in child ? nodeCount + DATA_SEPARATOR + child.data : nodes.get(child)!;
  };
  const tree = Buffer.alloc(nodeCount * RECORD_BYTES * 2);
  for (const [node, number] of nodes) {
    tree.writeUIntBE(record(node.children[0]), number * 6, RECORD_BYTES);
    tree.writeUIntBE(record(node.children[1]), number * 6 + RECORD_BYTES, RECORD_BYTES);
  }
  const metadata = encode({
    node_count: nodeCount, record_size: RECORD_BYTES * 8, ip_version: 6, database_type: databaseType, languages: ['en'],
    binary_format_major_version: 2, binary_format_minor_version: 0, build_epoch: 1_764_201_600, description: { en: 'Linkforge test data' },
  });
  return Buffer.concat([tree, Buffer.alloc(DATA_SEPARATOR), ...data, METADATA_MARKER, metadata]);
}

/** The network's first `length` bits, an IPv4 network as its place in the IPv6 tree (::a.b.c.d/96+n). */
function bitsOf(cidr: string): [bytes: number[], length: number] {
  const [address, length] = ipaddr.parseCIDR(cidr);
  return address.kind() === 'ipv4' ? [[...new Array<number>(12).fill(0), ...address.toByteArray()], 96 + length] : [address.toByteArray(), length];
}

function insert(root: TrieNode, bytes: readonly number[], length: number, leaf: Child): void {
  let node = root;
  for (let depth = 0; depth < length; depth++) {
    const bit = (bytes[depth >> 3]! >> (7 - (depth & 7))) & 1;
    if (depth === length - 1) {
      node.children[bit] = leaf;
      return;
    }
    const child = node.children[bit];
    if (child === undefined || 'data' in child) node.children[bit] = { children: [undefined, undefined] };
    node = node.children[bit] as TrieNode;
  }
}

/** Node numbers, root first. */
function numbered(root: TrieNode): Map<TrieNode, number> {
  const numbers = new Map<TrieNode, number>();
  const queue = [root];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    numbers.set(node, numbers.size);
    for (const child of node.children) if (child !== undefined && !('data' in child)) queue.push(child);
  }
  return numbers;
}

const STRING = 2;
const UINT32 = 6;
const MAP = 7;
const ARRAY = 11;

function encode(value: MmdbValue): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(STRING, bytes.length), bytes]);
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new Error(`only unsigned 32-bit integers are written: ${value}`);
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    const significant = bytes.subarray(bytes.findIndex((byte) => byte !== 0) === -1 ? 4 : bytes.findIndex((byte) => byte !== 0));
    return Buffer.concat([control(UINT32, significant.length), significant]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(ARRAY, value.length), ...value.map(encode)]);
  const entries = Object.entries(value as Record<string, MmdbValue>);
  return Buffer.concat([control(MAP, entries.length), ...entries.flatMap(([key, item]) => [encode(key), encode(item)])]);
}

/** The control byte(s): type in the top three bits (extended types in a byte of their own), then the size. */
function control(type: number, size: number): Buffer {
  const [sizeBits, sizeBytes] = size < 29 ? [size, []]
    : size < 285 ? [29, [size - 29]]
      : size < 65_821 ? [30, [(size - 285) >> 8, (size - 285) & 0xff]]
        : [31, [(size - 65_821) >> 16, ((size - 65_821) >> 8) & 0xff, (size - 65_821) & 0xff]];
  const head = type <= 7 ? [(type << 5) | sizeBits] : [sizeBits, type - 7];
  return Buffer.from([...head, ...sizeBytes]);
}
