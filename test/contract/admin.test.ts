// The hosted sandbox's admin API document (packages/contract/openapi/admin/): its operations, security, errors, credentials and examples,
// read from the bundle packages/contract/generated/openapi/admin.yaml, and its entry `admin` in the generated operation index.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import * as adminValidators from '../../packages/contract/generated/operations/admin-validators.js';
import { operationIndex, problemCatalogue } from '../../packages/contract/generated/operations/operations.js';
import { apis } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import {
  findOperation,
  operationsOf,
  validateRequest,
  validateResponse,
} from '../../packages/contract/src/validation/index.js';
import { BundledSpec, type Node } from './bundled-spec.js';

const spec = await BundledSpec.open('Sandbox admin', 'admin');
const variants = [await BundledSpec.open('Variant A', 'variant-a'), await BundledSpec.open('Variant B', 'variant-b')];
const operations = spec.operations();

/** Every operation of the admin API: method, path, operationId. */
const EXPECTED = [
  ['POST', '/_admin/tenants', 'createTenant'],
  ['GET', '/_admin/tenants', 'listTenants'],
  ['GET', '/_admin/tenants/{tenantId}', 'retrieveTenant'],
  ['POST', '/_admin/tenants/{tenantId}/rotate', 'rotateTenantCredentials'],
  ['DELETE', '/_admin/tenants/{tenantId}', 'revokeTenant'],
  ['GET', '/_admin/settings', 'retrieveSettings'],
];

const PROBLEM = 'application/problem+json';
const REALM = 'Bearer realm="merchant-payments-sandbox-admin"';
const schemas = spec.doc.components.schemas as Record<string, Node>;

describe('the sandbox admin API document', () => {
  it("says once, for the whole document, that it is the project's own design and not part of the interface", () => {
    expect(spec.doc.info['x-provenance']).toBe('assumed');
    expect(spec.doc.info.description).toContain('Not part of the merchant payments interface');
    expect(spec.doc.info.title).toBe('Merchant Payments API (Sandbox admin)');
  });

  it('has exactly the documented operations, every path under /_admin, tagged Tenants or (the settings) Settings', () => {
    expect(operations.map((op) => [op.method, op.path, op.operationId]).sort()).toEqual([...EXPECTED].sort());
    for (const op of operations)
      expect(op.node.tags, op.operationId).toEqual([op.operationId === 'retrieveSettings' ? 'Settings' : 'Tenants']);
    expect(spec.doc.webhooks).toBeUndefined();
  });

  it('keeps the split layout: one path file per path, `/` turned into `_`, braces kept', () => {
    const source = parse(readFileSync(path.join(root, apis.admin!.root), 'utf8'));
    for (const [route, item] of Object.entries(source.paths as Record<string, Node>)) {
      expect(item.$ref, route).toBe(`paths/${route.slice(1).replaceAll('/', '_')}.yaml`);
    }
  });

  it('takes the admin token alone, as a bearer token named after SANDBOX_ADMIN_TOKEN, and no operation overrides that', () => {
    expect(spec.doc.security).toEqual([{ adminToken: [] }]);
    const schemes = spec.expand(spec.doc.components.securitySchemes) as Node;
    expect(Object.keys(schemes)).toEqual(['adminToken']);
    expect(schemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.adminToken.description).toContain('SANDBOX_ADMIN_TOKEN');
    for (const op of operations) expect(op.node.security, op.operationId).toBeUndefined();
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    '%s answers 400, 401, 404, 422 and 500 as problem+json, never 429',
    (_id, op) => {
      const codes = Object.keys(op.node.responses);
      expect(codes).toEqual(expect.arrayContaining(['400', '401', '404', '422', '500']));
      expect(codes).not.toContain('429');
      for (const code of codes.filter((c) => /^[45]/.test(c))) {
        const content = spec.response(op, code)!.content as Node;
        expect(Object.keys(content), code).toEqual([PROBLEM]);
        expect(spec.refName(content[PROBLEM].schema)).toBe('Problem');
      }
    },
  );

  it('challenges a missing or wrong token with the admin realm, and declares no rate-limit header', () => {
    for (const op of operations) {
      const headers = spec.expand(spec.response(op, '401')!.headers) as Node;
      expect(Object.keys(headers), op.operationId).toEqual(['WWW-Authenticate']);
      expect(headers['WWW-Authenticate']).toMatchObject({ required: true, schema: { const: REALM } });
      for (const code of Object.keys(op.node.responses)) {
        expect(
          Object.keys((spec.response(op, code)!.headers ?? {}) as Node).filter((h) => /^RateLimit/i.test(h)),
          `${op.operationId} ${code}`,
        ).toEqual([]);
      }
    }
  });

  it('answers 404 on every path when the admin API is off, and names the unknown tenant where one is named', () => {
    for (const op of operations) {
      const examples = spec.expand(spec.response(op, '404')!.content[PROBLEM].examples) as Node;
      expect(examples.admin_api_off?.value, op.operationId).toMatchObject({ status: 404, code: 'not_found' });
      const namesTenant =
        op.path.includes('{tenantId}') || spec.parameters(op).some((p) => p.name === 'starting_after');
      expect('not_found' in examples, op.operationId).toBe(namesTenant);
    }
  });

  it('answers 409 tenant_revoked on a rotation only, and takes no Idempotency-Key anywhere', () => {
    for (const op of operations) {
      expect(
        spec.parameters(op).filter((p) => p.in === 'header'),
        op.operationId,
      ).toEqual([]);
      expect('409' in op.node.responses, op.operationId).toBe(op.operationId === 'rotateTenantCredentials');
    }
    const examples = spec.expand(
      spec.response(spec.operation('rotateTenantCredentials')!, '409')!.content[PROBLEM].examples,
    ) as Node;
    expect(Object.values(examples).map((e) => (e as Node).value.code)).toEqual(['tenant_revoked']);
  });

  it("shows each problem code it shares with the main API with the main API's status, title and type", () => {
    const shown = operations.flatMap((op) =>
      Object.keys(op.node.responses)
        .filter((c) => /^[45]/.test(c))
        .flatMap((code) =>
          Object.values(spec.expand(spec.response(op, code)!.content[PROBLEM].examples) as Node).map(
            (e) => (e as Node).value as Node,
          ),
        ),
    );
    const codes = new Set(shown.map((problem) => problem.code as string));
    expect([...codes].sort()).toEqual([
      'bad_request',
      'internal_error',
      'not_found',
      'tenant_revoked',
      'unauthorized',
      'validation_failed',
    ]);
    for (const problem of shown) {
      expect(problem.type, problem.code).toBe(`https://docs.payments.example/problems/${problem.code}`);
      const known = problemCatalogue[problem.code];
      if (known)
        expect({ status: problem.status, title: problem.title }, problem.code).toEqual({
          status: known.status,
          title: known.title,
        });
    }
  });

  it('takes an optional, closed request body on Create Tenant (empty) and Rotate Tenant Credentials (overlap_seconds) only', () => {
    const withBody = operations.filter((op) => spec.requestBody(op));
    expect(withBody.map((op) => op.operationId).sort()).toEqual(['createTenant', 'rotateTenantCredentials']);
    for (const op of withBody) {
      expect(spec.requestBody(op)!.required, op.operationId).toBe(false);
      expect(spec.resolve(spec.bodySchema(spec.requestBody(op))!).additionalProperties, op.operationId).toBe(false);
    }
    const overlap = spec
      .properties({ $ref: '#/components/schemas/RotateTenantCredentialsRequest' })
      .get('overlap_seconds')!;
    expect(overlap).toMatchObject({ type: 'integer', minimum: 0, maximum: 604800, default: 86400 });
  });

  it('answers 201 for a creation, 204 without a body for a revocation, and 200 with a body otherwise', () => {
    for (const op of operations) {
      const success = Object.keys(op.node.responses).filter((c) => c.startsWith('2'));
      const expected = op.method === 'DELETE' ? '204' : op.operationId.startsWith('create') ? '201' : '200';
      expect(success, op.operationId).toEqual([expected]);
      expect(Boolean(spec.response(op, expected)!.content), op.operationId).toBe(expected !== '204');
    }
  });

  it('lists a tenant with exactly its seven fields, all required, and pages with has_more', () => {
    const tenant = schemas.Tenant!;
    expect(Object.keys(tenant.properties).sort()).toEqual([
      'created_at',
      'id',
      'previous_credentials_expire_at',
      'public_key',
      'revoked_at',
      'rotated_at',
      'status',
    ]);
    expect([...tenant.required].sort()).toEqual(Object.keys(tenant.properties).sort());
    expect(tenant.additionalProperties).toBe(false);
    expect(schemas.TenantStatus!.enum).toEqual(['active', 'revoked']);
    expect(Object.keys(schemas.TenantListResponse!.properties).sort()).toEqual(['data', 'has_more']);
    const list = spec.parameters(spec.operation('listTenants')!);
    expect(list.map((p) => [p.in, p.name])).toEqual([
      ['query', 'limit'],
      ['query', 'starting_after'],
    ]);
    expect(spec.expand(list[0]!.value.schema)).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(spec.refName(list[1]!.value.schema)).toBe('TenantId');
  });
});

describe('credentials in the admin API', () => {
  /** Every property name reachable from a node, `$ref`s followed. */
  const propertyNames = (node: unknown): Set<string> => {
    const names = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value as Node)) {
        if (key === 'properties') Object.keys(child as Node).forEach((name) => names.add(name));
        if (key !== 'examples' && key !== 'example') walk(child);
      }
    };
    walk(spec.expand(node));
    return names;
  };

  it('shows the access token and the secret key only in the answers that issue them', () => {
    const issuing = ['createTenant 201', 'rotateTenantCredentials 200'];
    for (const op of operations) {
      for (const code of Object.keys(op.node.responses)) {
        const names = propertyNames(spec.response(op, code));
        for (const secret of ['access_token', 'secret_key'])
          expect(names.has(secret), `${op.operationId} ${code} ${secret}`).toBe(
            issuing.includes(`${op.operationId} ${code}`),
          );
      }
    }
    expect(propertyNames({ $ref: '#/components/schemas/Tenant' }).has('public_key')).toBe(true);
  });

  it("issues exactly the four credentials on creation, and the rotated ones with the previous credentials' expiry", () => {
    for (const [name, fields] of [
      ['TenantCredentials', ['access_token', 'id', 'public_key', 'secret_key']],
      [
        'RotatedTenantCredentials',
        ['access_token', 'id', 'previous_credentials_expire_at', 'public_key', 'secret_key'],
      ],
    ] as const) {
      const schema = schemas[name]!;
      expect(Object.keys(schema.properties).sort(), name).toEqual(fields);
      expect([...schema.required].sort(), name).toEqual(fields);
      expect(schema.additionalProperties, name).toBe(false);
      expect(schema.description, name).toMatch(/shown once/i);
    }
    expect(schemas.TenantAccessToken!.format).toBe('password');
    expect(schemas.TenantSecretKey!.format).toBe('password');
  });

  /** What the issuer makes: a prefix and the base64url of random bytes. */
  const issued = {
    TenantId: ['ten_', 16],
    TenantAccessToken: ['sbx_at_', 32],
    TenantPublicKey: ['sbx_pk_', 16],
    TenantSecretKey: ['sbx_sk_', 32],
  } as const;

  it.each(Object.entries(issued))(
    '%s takes its prefix and the base64url of its random bytes, and nothing else',
    (name, [prefix, bytes]) => {
      const schema = schemas[name]!;
      const pattern = new RegExp(schema.pattern as string);
      for (let i = 0; i < 50; i += 1) {
        const value = `${prefix}${randomBytes(bytes).toString('base64url')}`;
        expect(pattern.test(value), value).toBe(true);
        expect(value.length).toBe(schema.minLength);
        expect(value.length).toBe(schema.maxLength);
      }
      const sample = `${prefix}${randomBytes(bytes).toString('base64url')}`;
      for (const bad of [
        sample.slice(0, -1),
        `${sample}A`,
        sample.replace(prefix, 'xxx_'),
        `${sample.slice(0, -1)}=`,
        `${sample.slice(0, -1)}+`,
      ])
        expect(pattern.test(bad), bad).toBe(false);
    },
  );

  // Note: the interface states no format for its credentials (shared/interface.md, section 5); what each is sent in
  // still constrains it: a header value the clients accept, RFC 6750's token68 for the bearer token, and any pattern a
  // variant may come to declare on these headers.
  it('issues credentials that every place they are sent accepts', () => {
    const printable = /^[\x21-\x7E]+$/;
    const token68 = /^[A-Za-z0-9\-._~+/]+=*$/;
    const examples = Object.fromEntries(
      Object.keys(issued).map((name) => [name, schemas[name]!.examples[0] as string]),
    );
    for (const value of Object.values(examples)) expect(printable.test(value), value).toBe(true);
    expect(token68.test(examples.TenantAccessToken!)).toBe(true);
    const ajv = new Ajv2020({ strict: false });
    const sentAs: Record<string, string> = {
      authorization: `Bearer ${examples.TenantAccessToken}`,
      'x-public-key': examples.TenantPublicKey!,
      'x-secret-key': examples.TenantSecretKey!,
    };
    for (const variant of variants) {
      for (const op of variant.operations()) {
        for (const p of variant.parameters(op).filter((p) => p.in === 'header' && p.name.toLowerCase() in sentAs)) {
          expect(
            ajv.validate(variant.expand(p.value.schema) as Node, sentAs[p.name.toLowerCase()]),
            `${variant.label} ${op.operationId} ${p.name}`,
          ).toBe(true);
        }
      }
      for (const scheme of Object.values(variant.expand(variant.doc.components.securitySchemes) as Node)) {
        expect(
          Object.keys(scheme as Node).filter((key) => /pattern|length/i.test(key)),
          variant.label,
        ).toEqual([]);
      }
    }
  });
});

describe('examples of the admin API', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('password', true);
  ajv.addSchema(spec.doc, 'admin.yaml');
  const check = (schema: Node, value: unknown) => {
    expect(typeof schema.$ref, 'bodies name their schema').toBe('string');
    const validate = ajv.getSchema(`admin.yaml${schema.$ref}`)!;
    return validate(value) ? [] : validate.errors;
  };

  it.each(operations.map((op) => [op.operationId, op] as const))(
    '%s has a named example for each body, and each fits its schema',
    (_id, op) => {
      const bodies: [string, Node | undefined][] = [['request', spec.requestBody(op)]];
      for (const code of Object.keys(op.node.responses)) bodies.push([code, spec.response(op, code)]);
      for (const [where, body] of bodies) {
        for (const [mediaType, content] of Object.entries((body?.content ?? {}) as Node)) {
          const examples = Object.entries(spec.expand((content as Node).examples ?? {}) as Node);
          expect(examples.length, `${where} ${mediaType}`).toBeGreaterThan(0);
          for (const [name, example] of examples)
            expect(check((content as Node).schema, (example as Node).value), `${where} ${name}`).toEqual([]);
        }
      }
    },
  );

  it("gives every schema of its own and every parameter an example (the shared Problem is the main API's)", () => {
    const shared = parse(readFileSync(path.join(root, 'packages/contract/generated/openapi/shared.yaml'), 'utf8'))
      .components.schemas as Node;
    const own = Object.entries(schemas).filter(([name]) => !(name in shared));
    expect(own.length).toBe(Object.keys(schemas).length - 3);
    for (const [name, schema] of own) expect(schema.examples?.length ?? 0, name).toBeGreaterThan(0);
    for (const [name, parameter] of Object.entries(spec.doc.components.parameters as Record<string, Node>))
      expect(parameter.example, name).toBeDefined();
  });
});

describe('the operation index entry `admin`', () => {
  const op = (id: string) => findOperation('admin', id)!;
  const tenant = schemas.TenantId!.examples[0] as string;

  it('lists every operation of the bundle with its method and path template, from its own validators module', () => {
    expect(operationIndex.admin.source).toBe(apis.admin!.output);
    expect(
      operationsOf('admin')
        .map((o) => [o.method, o.path, o.operationId])
        .sort(),
    ).toEqual([...EXPECTED].sort());
    const used = new Set<unknown>();
    for (const o of operationsOf('admin')) {
      for (const p of o.parameters) used.add(p.validator);
      for (const media of Object.values(o.requestBody?.content ?? {})) used.add(media.validator);
    }
    for (const response of Object.values(operationIndex.admin.responses)) {
      for (const header of response.headers) used.add(header.validator);
      for (const media of Object.values(response.content)) used.add(media.validator);
    }
    const exported = Object.entries(adminValidators).filter(([name]) => name.startsWith('validate'));
    expect(exported.filter(([, validate]) => !used.has(validate)).map(([name]) => name)).toEqual([]);
    expect([...used].every((validate) => exported.some(([, v]) => v === validate))).toBe(true);
  });

  it('accepts Create Tenant with no body or an empty object, and refuses any field', () => {
    const create = (rawBody?: string) =>
      validateRequest('admin', 'createTenant', {
        headers: new Headers(rawBody ? { 'content-type': 'application/json' } : {}),
        ...(rawBody ? { rawBody } : {}),
      });
    expect(create().ok).toBe(true);
    expect(create('{}').ok).toBe(true);
    expect(create('{"name":"acme"}').ok).toBe(false);
  });

  it('reads limit with its default and refuses what the document refuses', () => {
    const list = (query: string) =>
      validateRequest('admin', 'listTenants', { query: new URLSearchParams(query), headers: new Headers() });
    const ok = list('');
    expect(ok.ok && ok.request.query).toEqual({ limit: 20 });
    expect(list(`limit=100&starting_after=${tenant}`).ok).toBe(true);
    for (const query of ['limit=0', 'limit=101', 'starting_after=pay_8f3k2m9q4w7x'])
      expect(list(query).ok, query).toBe(false);
    const rotate = (body: string) =>
      validateRequest('admin', 'rotateTenantCredentials', {
        params: { tenantId: tenant },
        headers: new Headers({ 'content-type': 'application/json' }),
        rawBody: body,
      });
    expect(rotate('{"overlap_seconds":0}').ok).toBe(true);
    expect(rotate('{"overlap_seconds":604801}').ok).toBe(false);
    expect(
      validateRequest('admin', 'retrieveTenant', { params: { tenantId: 'ten_short' }, headers: new Headers() }).ok,
    ).toBe(false);
  });

  it('accepts every named response example with its status and headers, and a 401 only with the admin challenge', () => {
    for (const o of operations) {
      for (const code of Object.keys(o.node.responses)) {
        for (const [media, content] of Object.entries((spec.response(o, code)!.content ?? {}) as Node)) {
          const headers = new Headers({
            'content-type': media,
            ...(code === '401' ? { 'www-authenticate': REALM } : {}),
          });
          for (const [name, example] of Object.entries(spec.expand((content as Node).examples) as Node)) {
            expect(
              validateResponse('admin', op(o.operationId), {
                status: Number(code),
                headers,
                body: (example as Node).value,
              }),
              `${o.operationId} ${code} ${name}`,
            ).toEqual([]);
          }
        }
      }
    }
    const problem = {
      type: 'https://docs.payments.example/problems/unauthorized',
      title: 'Unauthorized',
      status: 401,
      code: 'unauthorized',
    };
    const without = validateResponse('admin', op('listTenants'), {
      status: 401,
      headers: new Headers({ 'content-type': PROBLEM }),
      body: problem,
    });
    expect(without).not.toEqual([]);
    const merchantRealm = validateResponse('admin', op('listTenants'), {
      status: 401,
      headers: new Headers({ 'content-type': PROBLEM, 'www-authenticate': 'Bearer realm="merchant-payments"' }),
      body: problem,
    });
    expect(merchantRealm).not.toEqual([]);
    expect(validateResponse('admin', op('revokeTenant'), { status: 204, headers: new Headers() })).toEqual([]);
  });
});
