import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isForbiddenAddress } from '../../src/core/ip-ranges.js';
import { addressPolicy, systemResolver } from '../../src/jobs/destination-address.js';
import { locateDestination, probeDestination, type ProbeOptions } from '../../src/jobs/destination-probe.js';
import { fakeDns } from '../support/fake-dns.js';
import { startTarget, type TargetServer } from '../support/target-servers.js';

/**
 * ADR 0015: with ALLOW_PRIVATE_DESTINATIONS=false the check refuses
 * internal and non-unicast addresses, literal or resolved, at the first hop and at every redirect.
 * A "secret" server on 127.0.0.1 (and one on ::1) stands for what must never be reached.
 */
describe('the health check refuses internal destinations', () => {
  let secret: TargetServer;
  let secret6: TargetServer;
  const hits = () => secret.requests.length + secret6.requests.length;
  before(async () => {
    secret = await startTarget((_request, response) => response.end('secret'));
    secret6 = await startTarget((_request, response) => response.end('secret'), '::1');
  });
  after(async () => {
    await secret.close();
    await secret6.close();
  });

  // Unknown names are not found: nothing here ever asks the system's DNS by mistake.
  const strict = (dns = fakeDns({})): ProbeOptions => ({ ...addressPolicy(dns, false), timeoutMs: 1000 });

  async function assertRefused(url: string, options = strict()): Promise<void> {
    const before = hits();
    const result = await probeDestination(url, options);
    assert.deepEqual({ status: result.status, outcome: result.outcome }, { status: 0, outcome: 'refused' }, url);
    assert.equal(hits(), before, `${url} reached a secret server`);
  }

  test('IPv4 literals: loopback, private, CGNAT, link-local, unspecified, broadcast, multicast, reserved', async () => {
    await assertRefused(secret.url('/'));
    for (const host of ['127.1.2.3', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.1.1', '0.0.0.0',
      '255.255.255.255', '224.0.0.1', '240.0.0.1', '192.0.0.192', '198.18.0.1']) {
      await assertRefused(`http://${host}:${secret.port}/`);
    }
  });

  test('IPv4 written as a number, in hex or in octal is judged by the address it stands for', async () => {
    for (const host of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1']) await assertRefused(`http://${host}:${secret.port}/`);
  });

  test('IPv6 literals: loopback, unspecified, unique-local, link-local, multicast, site-local', async () => {
    await assertRefused(secret6.url('/'));
    for (const host of ['::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', 'fec0::1', '100::1']) {
      await assertRefused(`http://[${host}]:${secret.port}/`);
    }
  });

  test('IPv4-mapped IPv6 of loopback and private addresses', async () => {
    await assertRefused(`http://[::ffff:127.0.0.1]:${secret.port}/`);
    await assertRefused(`https://[::ffff:10.0.0.1]/`);
    await assertRefused(`http://[::ffff:7f00:1]:${secret.port}/`);
  });

  test('NAT64 (64:ff9b::/96) forms, of loopback and of metadata', async () => {
    await assertRefused(`http://[64:ff9b::7f00:1]:${secret.port}/`);
    await assertRefused('http://[64:ff9b::a9fe:a9fe]/latest/meta-data/');
    await assertRefused('http://[64:ff9b:1::a]/');
  });

  test('cloud metadata addresses: 169.254.169.254, fd00:ec2::254, 100.100.100.200, in every form', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://2852039166/']) {
      await assertRefused(url);
    }
    await assertRefused('http://metadata.google.internal/computeMetadata/v1/', strict(fakeDns({ 'metadata.google.internal': ['169.254.169.254'] })));
  });

  test('a public-looking name the DNS answers with 127.0.0.1 is refused after resolution', async () => {
    const dns = fakeDns({ 'public.example': ['127.0.0.1'] });
    await assertRefused(`http://public.example:${secret.port}/`, strict(dns));
    assert.deepEqual(dns.calls, ['public.example']);
  });

  test('a name answered with a mapped, NAT64, unique-local or private address is refused', async () => {
    for (const address of ['::ffff:127.0.0.1', '64:ff9b::7f00:1', 'fd00:ec2::254', '10.1.2.3', '::1', '0.0.0.0']) {
      await assertRefused(`http://public.example:${secret.port}/`, strict(fakeDns({ 'public.example': [address] })));
    }
  });

  test('a name with one internal address among public ones is refused, whichever comes first', async () => {
    await assertRefused(`http://public.example:${secret.port}/`, strict(fakeDns({ 'public.example': ['93.184.216.34', '127.0.0.1'] })));
    await assertRefused(`http://public.example:${secret.port}/`, strict(fakeDns({ 'public.example': ['2606:4700::1111', '::ffff:10.0.0.1'] })));
  });

  test('localhost, resolved by the system resolver, is refused', async () => {
    await assertRefused(`http://localhost:${secret.port}/`, { ...addressPolicy(systemResolver, false), timeoutMs: 1000 });
  });

  describe('at every redirect hop', () => {
    let front: TargetServer;
    // A public server stands on 127.0.0.2: the real rules, with that one address let through.
    const allowFront: ProbeOptions['isForbidden'] = (address) => address !== '127.0.0.2' && isForbiddenAddress(address);
    before(async () => {
      front = await startTarget((request, response) => {
        const to = new URL(request.url ?? '/', 'http://front').searchParams.get('to') ?? '/';
        response.writeHead(302, { location: to }).end();
      }, '127.0.0.2');
    });
    after(() => front.close());

    test('a redirect to 127.0.0.1, to localhost or to a name that resolves inside is refused', async () => {
      const dns = fakeDns({ 'public.example': ['127.0.0.2'], 'inside.example': ['127.0.0.1'], localhost: ['127.0.0.1'] });
      const options = { resolve: dns, isForbidden: allowFront, timeoutMs: 1000 };
      for (const to of [secret.url('/'), `http://localhost:${secret.port}/`, `http://inside.example:${secret.port}/`, `http://[::ffff:127.0.0.1]:${secret.port}/`]) {
        await assertRefused(front.url(`/?to=${encodeURIComponent(to)}`), options);
        await assertRefused(`http://public.example:${front.port}/?to=${encodeURIComponent(to)}`, options);
      }
      assert.equal(front.requests.length, 8, 'the first hop was allowed and asked every time');
    });

    test('a redirect to a scheme other than http(s) ends the check with the redirect status', async () => {
      const result = await probeDestination(front.url('/?to=file:///etc/passwd'), { resolve: fakeDns({}), isForbidden: allowFront, timeoutMs: 1000 });
      assert.deepEqual({ status: result.status, outcome: result.outcome }, { status: 302, outcome: 'answered' });
    });
  });

  test('DNS rebinding: the address that was vetted is the one connected to, with no second lookup', async () => {
    const good = await startTarget((_request, response) => response.end('ok'), '127.0.0.2');
    try {
      // Real rules but for the good server's address; every second answer is the secret server's.
      let answer = 0;
      const dns = fakeDns({ 'public.example': () => [(answer++ % 2 === 0) ? '127.0.0.2' : '127.0.0.1'] });
      const options: ProbeOptions = { resolve: dns, isForbidden: (address) => address !== '127.0.0.2' && isForbiddenAddress(address), timeoutMs: 1000 };
      const outcomes: string[] = [];
      for (let i = 0; i < 100; i++) outcomes.push((await probeDestination(`http://public.example:${good.port}/`, options)).outcome);
      assert.equal(secret.requests.length, 0);
      assert.equal(good.requests.length, 50);
      assert.deepEqual([...new Set(outcomes)].sort(), ['answered', 'refused']);
      assert.equal(dns.calls.length, 100, 'one lookup per check');
    } finally {
      await good.close();
    }
  });

  test('the checker paces by the address it located, and the check connects to that one address with no second lookup', async () => {
    const good = await startTarget((_request, response) => response.end('ok'), '127.0.0.2');
    try {
      // The first answer is the good server's; every later one the secret server's, which the rules let through here.
      let answer = 0;
      const dns = fakeDns({ 'public.example': () => [answer++ === 0 ? '127.0.0.2' : '127.0.0.1'] });
      const options: ProbeOptions = { resolve: dns, isForbidden: (address) => !address.startsWith('127.0.0.') && isForbiddenAddress(address), timeoutMs: 1000 };
      const url = `http://public.example:${good.port}/`;
      const located = await locateDestination(url, options);
      assert.deepEqual(located, { address: { address: '127.0.0.2', family: 4 } });
      const result = await probeDestination(url, { ...options, firstHop: 'address' in located ? located.address : undefined });
      assert.deepEqual({ status: result.status, outcome: result.outcome }, { status: 200, outcome: 'answered' });
      assert.deepEqual([good.requests.length, secret.requests.length, dns.calls.length], [1, 0, 1]);
    } finally {
      await good.close();
    }
  });

  test('locating an internal destination refuses it, as a check would', async () => {
    const located = await locateDestination(`http://public.example:${secret.port}/`, strict(fakeDns({ 'public.example': ['10.1.2.3'] })));
    assert.deepEqual(located, { failed: { status: 0, outcome: 'refused', redirects: 0, bodyBytes: 0 } });
    assert.deepEqual(await locateDestination('ftp://example.com/', strict()), { failed: { status: 0, outcome: 'refused', redirects: 0, bodyBytes: 0 } });
    assert.equal(hits(), 0);
  });
});
