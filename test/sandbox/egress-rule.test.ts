// The egress rule on its own: the class of each address (IPv4, IPv6, IPv4-mapped), which classes each mode refuses,
// the operator's allow list, and the lookup a connection uses. Pure: every name is resolved by a stub, nothing is sent.
import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { createSandbox } from '../../packages/sandbox/src/index.js';
import {
  classifyAddress,
  createEgressRule,
  parseAllowEntry,
  REFUSED_CLASSES,
  type AddressClass,
  type EgressMode,
  type Resolve,
} from '../../packages/sandbox/src/delivery/egress.js';
import { EgressRefusedError } from '../../packages/sandbox/src/delivery/egress-refused.js';
import { SECRET } from './fixtures.js';

/** A resolver that answers from a table and counts its calls; a name not in it does not resolve. */
function stubResolve(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve: Resolve = async (name) => {
    calls.push(name);
    const found = table[name];
    if (!found) throw Object.assign(new Error(`queryA SERVFAIL ${name} via 10.9.8.7`), { code: 'ESERVFAIL' });
    return found;
  };
  return { resolve, calls };
}

describe('classifyAddress', () => {
  it.each<[string, AddressClass]>([
    ['93.184.215.14', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['100.127.255.255', 'carrier_grade_nat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
  ])('IPv4 %s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each<[string, AddressClass]>([
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:82b::200e', 'public'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2002:7f00:1::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::808:808', 'public'],
  ])('IPv6 %s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each<[string, AddressClass]>([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:101', 'link_local'],
    ['::ffff:93.184.215.14', 'public'],
  ])('IPv4-mapped %s is judged as its IPv4 address: %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each(['localhost', '127.1', '0x7f000001', '', '[::1]', '10.0.0.0/8'])(
    'throws a TypeError for %j, which is no address',
    (text) => {
      expect(() => classifyAddress(text)).toThrow(TypeError);
    },
  );
});

describe('the classes each mode refuses', () => {
  const table: [AddressClass, boolean, boolean][] = [
    // class, refused in issued, refused in open
    ['public', false, false],
    ['loopback', true, false],
    ['private', true, false],
    ['link_local', true, true],
    ['metadata', true, true],
    ['carrier_grade_nat', true, false],
    ['unspecified', true, true],
    ['broadcast', true, true],
    ['multicast', true, true],
    ['reserved', true, false],
    ['documentation', true, false],
  ];

  it.each(table)('%s: refused in issued mode %s, in open mode %s', (addressClass, issued, open) => {
    expect([REFUSED_CLASSES.issued.has(addressClass), REFUSED_CLASSES.open.has(addressClass)]).toEqual([issued, open]);
  });

  it('lists every class once', () => {
    expect(new Set([...REFUSED_CLASSES.issued, ...REFUSED_CLASSES.open, 'public'])).toEqual(
      new Set(table.map(([c]) => c)),
    );
  });
});

describe('an egress rule', () => {
  const check = (mode: EgressMode, host: string, allow: string[] = [], table: Record<string, string[]> = {}) =>
    createEgressRule({ mode, allow, resolve: stubResolve(table).resolve }).checkHost(host, {
      resolve: mode === 'issued',
    });

  it('refuses an IP address by its class, without a lookup, in either mode', async () => {
    const stub = stubResolve({});
    for (const mode of ['issued', 'open'] as const) {
      const rule = createEgressRule({ mode, resolve: stub.resolve });
      expect(await rule.checkHost('169.254.169.254', { resolve: true })).toEqual({
        allowed: false,
        reason: 'forbidden',
        addressClass: 'metadata',
        by: 'address',
      });
      expect(await rule.checkHost('[fe80::1]', { resolve: true })).toEqual({
        allowed: false,
        reason: 'forbidden',
        addressClass: 'link_local',
        by: 'address',
      });
    }
    expect(await check('issued', '127.0.0.1')).toEqual({
      allowed: false,
      reason: 'forbidden',
      addressClass: 'loopback',
      by: 'address',
    });
    expect(await check('issued', '[::ffff:7f00:1]')).toEqual({
      allowed: false,
      reason: 'forbidden',
      addressClass: 'loopback',
      by: 'address',
    });
    expect(await check('open', '127.0.0.1')).toEqual({ allowed: true });
    expect(await check('open', '192.168.0.10')).toEqual({ allowed: true });
    expect(stub.calls).toEqual([]);
  });

  it('refuses the metadata services by name in either mode, without looking them up', async () => {
    const stub = stubResolve({ 'metadata.google.internal': ['93.184.215.14'] });
    for (const mode of ['issued', 'open'] as const) {
      const rule = createEgressRule({ mode, resolve: stub.resolve });
      for (const host of ['metadata.google.internal', 'METADATA.Google.Internal.', 'metadata']) {
        expect(await rule.checkHost(host, { resolve: true }), `${mode} ${host}`).toEqual({
          allowed: false,
          reason: 'forbidden',
          addressClass: 'metadata',
          by: 'name',
        });
      }
    }
    expect(stub.calls).toEqual([]);
  });

  it('in issued mode, allows a name whose every address is public, and refuses one with a single private address among them', async () => {
    const table = {
      'hooks.merchant.example': ['93.184.215.14', '2606:4700:4700::1111'],
      'mixed.merchant.example': ['93.184.215.14', '10.0.0.7'],
    };
    expect(await check('issued', 'hooks.merchant.example', [], table)).toEqual({ allowed: true });
    expect(await check('issued', 'mixed.merchant.example', [], table)).toEqual({
      allowed: false,
      reason: 'forbidden',
      addressClass: 'private',
      by: 'resolved',
    });
  });

  it('takes a name that does not resolve, or resolves to nothing, as unresolvable', async () => {
    expect(await check('issued', 'nowhere.merchant.example')).toEqual({ allowed: false, reason: 'unresolvable' });
    expect(await check('issued', 'empty.merchant.example', [], { 'empty.merchant.example': [] })).toEqual({
      allowed: false,
      reason: 'unresolvable',
    });
  });

  it('in open mode, leaves a name to the connection: no lookup when asked not to resolve', async () => {
    const stub = stubResolve({});
    const rule = createEgressRule({ mode: 'open', resolve: stub.resolve });
    expect(await rule.checkHost('merchant.test', { resolve: false })).toEqual({ allowed: true });
    expect(stub.calls).toEqual([]);
  });

  it('lets the allow list through: an IP, a CIDR range (IPv4-mapped addresses included), or a name in any case', async () => {
    expect(await check('issued', '127.0.0.1', ['127.0.0.1'])).toEqual({ allowed: true });
    expect(await check('issued', '127.0.0.1', ['127.0.0.0/8'])).toEqual({ allowed: true });
    expect(await check('issued', '[::ffff:127.0.0.1]', ['127.0.0.1'])).toEqual({ allowed: true });
    expect(await check('issued', '127.0.0.1', ['::ffff:127.0.0.0/104'])).toEqual({ allowed: true });
    expect(await check('issued', '127.0.0.2', ['127.0.0.1'])).toMatchObject({
      allowed: false,
      addressClass: 'loopback',
    });
    expect(await check('issued', '127.0.0.1', ['10.0.0.0/8'])).toMatchObject({
      allowed: false,
      addressClass: 'loopback',
    });
    expect(
      await check('issued', 'relay.internal', ['10.0.0.0/8'], { 'relay.internal': ['10.2.3.4', '10.2.3.5'] }),
    ).toEqual({ allowed: true });
    expect(
      await check('issued', 'relay.internal', ['10.0.0.0/8'], { 'relay.internal': ['10.2.3.4', '192.168.0.1'] }),
    ).toMatchObject({ allowed: false, addressClass: 'private' });
    expect(await check('open', '169.254.10.10', ['169.254.0.0/16'])).toEqual({ allowed: true });
    expect(await check('issued', 'metadata', ['metadata'])).toEqual({ allowed: true });
  });

  it('allows a name on the allow list, in any case and with a trailing dot, without looking it up', async () => {
    const stub = stubResolve({});
    const rule = createEgressRule({ mode: 'issued', allow: ['Hooks.Internal.Example'], resolve: stub.resolve });
    expect(await rule.checkHost('hooks.internal.example.', { resolve: true })).toEqual({ allowed: true });
    expect(await rule.checkHost('HOOKS.internal.example', { resolve: true })).toEqual({ allowed: true });
    expect(await rule.checkHost('other.internal.example', { resolve: true })).toEqual({
      allowed: false,
      reason: 'unresolvable',
    });
    expect(stub.calls).toEqual(['other.internal.example']);
  });

  it.each(['not a host', '10.0.0.0/33', '127.1', 'hooks..example', '::1/129', 'http://hooks.example/'])(
    'refuses the allow-list entry %j with a TypeError naming it',
    (entry) => {
      expect(() => parseAllowEntry(entry)).toThrow(TypeError);
      expect(() => parseAllowEntry(entry)).toThrow(entry);
      expect(() => createSandbox({ webhookSecret: SECRET, allowWebhookHosts: [entry] })).toThrow(TypeError);
    },
  );

  it('refuses a lookup option that is not a function', () => {
    expect(() => createSandbox({ webhookSecret: SECRET, lookup: 'dns' as never })).toThrow(/lookup must be a function/);
  });
});

describe("an egress rule's connection lookup", () => {
  const lookup = (rule: ReturnType<typeof createEgressRule>, host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
      (resolve) => {
        rule.connectLookup(host, { all }, (error, address, family) => resolve({ error, address, family }));
      },
    );

  it('hands the connection the addresses it judged, all of them or the first', async () => {
    const rule = createEgressRule({
      mode: 'issued',
      allow: ['127.0.0.0/8', '::1'],
      resolve: stubResolve({ 'hooks.test': ['127.0.0.3', '::1'] }).resolve,
    });
    expect(await lookup(rule, 'hooks.test', true)).toEqual({
      error: null,
      address: [
        { address: '127.0.0.3', family: 4 },
        { address: '::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookup(rule, 'hooks.test', false)).toEqual({ error: null, address: '127.0.0.3', family: 4 });
  });

  it('fails a refused address with an EgressRefusedError naming its class, not the address', async () => {
    const rule = createEgressRule({
      mode: 'issued',
      resolve: stubResolve({ 'hooks.test': ['93.184.215.14', '127.0.0.2'] }).resolve,
    });
    const { error } = await lookup(rule, 'hooks.test', true);
    expect(error).toBeInstanceOf(EgressRefusedError);
    expect((error as EgressRefusedError).addressClass).toBe('loopback');
    expect(error?.message).not.toContain('127.0.0.2');
  });

  it('passes a failed lookup on as it is, so that open mode keeps its system error code', async () => {
    const rule = createEgressRule({ mode: 'open', resolve: stubResolve({}).resolve });
    expect((await lookup(rule, 'nowhere.test', true)).error?.code).toBe('ESERVFAIL');
  });
});
