// Converts each variant's bundle into a Postman collection (openapi-to-postmanv2), and makes it run as imported:
// packages/contract/generated/postman/<variant>.postman_collection.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { bundles, variants } from './lib/apis.mjs';
import { root } from './lib/tools.mjs';

export const postmanDir = 'packages/contract/generated/postman';
export const postmanPath = (variant) => path.join(postmanDir, `${variant}.postman_collection.json`);

/** The sandbox's default address: the collection runs against it until the user changes `baseUrl`. */
const SANDBOX_URL = 'http://127.0.0.1:4020';

/** The collection variables a user fills in, per variant, with what each is for. */
const CREDENTIALS = {
  'variant-a': [{ key: 'accessToken', value: 'tok_sandbox', description: 'The bearer token (Authorization).' }],
  'variant-b': [
    { key: 'publicKey', value: 'pk_sandbox', description: 'The public key (X-Public-Key).' },
    { key: 'secretKey', value: 'sk_sandbox', description: 'The secret key (X-Secret-Key).' },
  ],
};

/** The collection variable each kind of id is kept in, and the path parameters that take it. */
const IDS = [
  { variable: 'paymentId', params: ['id', 'paymentId'], collection: 'payments' },
  { variable: 'payoutId', params: ['id', 'payoutId'], collection: 'payouts' },
  { variable: 'appealId', params: ['id', 'appealId'], collection: 'appeals' },
];

function convert(spec) {
  const converter = createRequire(import.meta.url)('openapi-to-postmanv2');
  return new Promise((resolve, reject) =>
    converter.convert(
      { type: 'string', data: spec },
      {
        folderStrategy: 'Tags',
        parametersResolution: 'Example',
        alwaysInheritAuthentication: true,
        enableOptionalParameters: false,
      },
      (error, result) => {
        if (error) reject(error);
        else if (!result.result) reject(new Error(`openapi-to-postmanv2: ${result.reason}`));
        else resolve(result.output[0].data);
      },
    ),
  );
}

/** Every request of the collection, through its folders. */
const requests = (items) => items.flatMap((item) => (item.item ? requests(item.item) : [item]));

/**
 * What the converter leaves for the user to do by hand, done once here:
 * - the credentials: Variant B's one requirement holds two headers, and the converter wires only the first
 *   (X-Public-Key), so X-Secret-Key is a header of every request, from `{{secretKey}}`;
 * - a new Idempotency-Key for every send (`{{$guid}}`), where the example's key would replay the first answer;
 * - the id a create answers is kept (`paymentId`, `payoutId`, `appealId`) and used by the requests on that object;
 * - each body is the operation's first named example, as written in the spec;
 * - `baseUrl` is the local sandbox. What the converter makes at random is dropped, so that regenerating reproduces the
 *   file: the ids it gives each item and the collection, and the example responses it fakes from the schemas where an
 *   operation has no example of its own.
 */
export function finish(collection, variant, spec) {
  const a = variant === 'variant-a';
  collection.auth = a
    ? { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] }
    : {
        type: 'apikey',
        apikey: [
          { key: 'key', value: 'X-Public-Key', type: 'string' },
          { key: 'value', value: '{{publicKey}}', type: 'string' },
          { key: 'in', value: 'header', type: 'string' },
        ],
      };
  collection.variable = [
    { key: 'baseUrl', value: SANDBOX_URL, description: 'The server: the local sandbox, or your own.' },
    ...CREDENTIALS[variant],
    ...IDS.map(({ variable }) => ({ key: variable, value: '', description: 'Set by the last create of its kind.' })),
  ].map((v) => ({ ...v, type: 'string' }));
  const operations = Object.values(spec.paths).flatMap((pathItem) =>
    ['get', 'post', 'put', 'patch', 'delete'].filter((m) => pathItem[m]).map((m) => ({ method: m, ...pathItem[m] })),
  );
  for (const item of requests(collection.item)) {
    const { request } = item;
    const operation = operations.find((o) => o.summary === item.name && o.method.toUpperCase() === request.method);
    if (!operation) throw new Error(`generate-postman: ${variant}: no operation for the request "${item.name}"`);
    delete item.response;
    const examples = operation.requestBody?.content?.['application/json']?.examples;
    if (examples) {
      const [first] = Object.values(examples);
      const value = first.$ref ? spec.components.examples[first.$ref.split('/').pop()].value : first.value;
      request.body = { mode: 'raw', raw: JSON.stringify(value, null, 2), options: { raw: { language: 'json' } } };
    } else if (operation.requestBody) {
      throw new Error(`generate-postman: ${variant}: ${operation.operationId} has a body but no example`);
    }
    const segments = request.url.path ?? [];
    const kind = IDS.find(({ collection: name }) => segments.includes(name));
    request.header = (request.header ?? []).map((h) =>
      h.key === 'Idempotency-Key' ? { ...h, value: '{{$guid}}' } : h,
    );
    if (!a) request.header.push({ key: 'X-Secret-Key', value: '{{secretKey}}', description: 'The secret key.' });
    for (const variable of request.url.variable ?? []) {
      if (
        kind &&
        kind.params.includes(variable.key) &&
        segments.indexOf(`:${variable.key}`) === segments.indexOf(kind.collection) + 1
      )
        variable.value = `{{${kind.variable}}}`;
    }
    if (kind && request.method === 'POST' && segments[segments.length - 1] === kind.collection) {
      item.event = [
        {
          listen: 'test',
          script: {
            type: 'text/javascript',
            exec: [
              `// Keeps the created object's id for the requests on it.`,
              `if (pm.response.code === 200) pm.collectionVariables.set('${kind.variable}', pm.response.json().data.id);`,
            ],
          },
        },
      ];
    }
  }
  const dropIds = (node) => {
    if (Array.isArray(node)) node.forEach(dropIds);
    else if (node && typeof node === 'object') {
      delete node.id;
      delete node._postman_id;
      Object.values(node).forEach(dropIds);
    }
  };
  dropIds(collection);
  return collection;
}

/** Renders each variant's collection: `{ [file]: content }`. */
export async function renderPostman(bundleFiles = bundles) {
  const files = {};
  for (const variant of variants) {
    const spec = readFileSync(path.resolve(root, bundleFiles[variant]), 'utf8');
    const collection = finish(await convert(spec), variant, parse(spec));
    files[postmanPath(variant)] = `${JSON.stringify(collection, null, 2)}\n`;
  }
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, content] of Object.entries(await renderPostman())) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
    console.log(`wrote ${file}`);
  }
}
