// Type-check cost: `tsc --noEmit` on a consumer file that calls every operation of both variants,
// against the same project with an empty file (the baseline: tsc start-up and the standard library).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BundledSpecExamples } from './examples.mjs';
import { openBundle } from '../lib/refs.mjs';
import { binPath, root } from '../lib/tools.mjs';
import { interleaved, timeMs } from './stats.mjs';

const CLIENTS = { 'variant-a': 'a', 'variant-b': 'b' };

/** TypeScript source that calls every operation of both variants through the typed clients. */
export async function consumerSource(entry) {
  const lines = [
    `import { createVariantAClient, createVariantBClient } from '${entry}';`,
    '',
    "const a = createVariantAClient({ baseUrl: 'http://127.0.0.1:4010', accessToken: 'token' });",
    "const b = createVariantBClient({ baseUrl: 'http://127.0.0.1:4011', publicKey: 'pk', secretKey: 'sk' });",
    '',
    'export async function callEverything(): Promise<unknown[]> {',
    '  return Promise.all([',
  ];
  for (const [api, client] of Object.entries(CLIENTS)) {
    const spec = new BundledSpecExamples(
      await openBundle(path.join(root, `packages/contract/generated/openapi/${api}.yaml`)),
    );
    for (const op of spec.operations()) {
      const init = [];
      if (op.pathParams.length)
        init.push(`params: { path: { ${op.pathParams.map((p) => `${p}: 'id_1'`).join(', ')} } }`);
      if (op.body !== undefined) init.push(`body: ${JSON.stringify(op.body)}`);
      lines.push(`    ${client}.${op.method}('${op.path}'${init.length ? `, { ${init.join(', ')} }` : ''}),`);
    }
  }
  lines.push('  ]);', '}', '');
  return lines.join('\n');
}

function tsc(project) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath('typescript', 'tsc'), '-p', project], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`tsc -p ${project} failed:\n${output.slice(-3000)}`)),
    );
  });
}

/** Rows: tsc time for the consumer file and for an empty file; ratio = consumer / empty. */
export async function typecheckCost({ scratch, runs }) {
  const dir = path.join(scratch, 'typecheck');
  rmSync(dir, { recursive: true, force: true });
  const projects = {};
  for (const name of ['empty', 'consumer']) {
    const folder = path.join(dir, name);
    const entry = path.relative(folder, path.join(root, 'packages/contract/src/index.js')).split(path.sep).join('/');
    const source = name === 'empty' ? 'export {};\n' : await consumerSource(entry);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'index.ts'), source);
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        // Note: the sources hold one plain JavaScript module (packages/contract/src/shared/server-timeouts.js), as tsconfig.json allows.
        allowJs: true,
        checkJs: false,
      },
      files: ['index.ts'],
    };
    writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify(config, null, 2));
    projects[name] = path.join(folder, 'tsconfig.json');
  }
  const results = await interleaved(
    {
      'tsc --noEmit, empty file': () => timeMs(() => tsc(projects.empty)),
      'tsc --noEmit, every operation of both variants': () => timeMs(() => tsc(projects.consumer)),
    },
    { runs, warmup: 1 },
  );
  const empty = results['tsc --noEmit, empty file'].median;
  return Object.entries(results).map(([name, s]) => ({
    section: 'type-check',
    name,
    unit: 'ms',
    ...s,
    ...(name.includes('every') ? { ratio: s.median / empty, baseline: 'empty file' } : {}),
  }));
}
