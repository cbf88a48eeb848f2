// Bundles each API listed in redocly.yaml into packages/contract/generated/openapi/<api>.yaml, and what both share into shared.yaml.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { apis, sharedBundle } from './lib/apis.mjs';
import { requireFile, root, runTool } from './lib/tools.mjs';

/** Bundles every API (or the named ones) into its `output` file (or into `outDir`); throws on failure. */
export function bundle(names = Object.keys(apis), outDir) {
  for (const name of names) {
    const api = apis[name];
    if (!api) throw new Error(`Unknown API ${name}; known: ${Object.keys(apis).join(', ')}`);
    requireFile(api.root, 'the spec root listed in redocly.yaml');
    redoclyBundle(name, path.join(root, api.root), outputPath(api.output, outDir));
  }
}

/**
 * Bundles every file of packages/contract/openapi/components/schemas/ and packages/contract/openapi/webhooks/ into packages/contract/generated/openapi/shared.yaml (or into
 * `outDir`): the shared types and the webhook validators are built from it, so they depend on neither variant.
 * Components keep their file names and webhooks take the camelCase of theirs, as both roots name them.
 */
export function bundleShared(outDir) {
  const entries = (dir, key) =>
    Object.fromEntries(
      readdirSync(path.join(root, dir))
        .filter((file) => file.endsWith('.yaml'))
        .sort()
        .map((file) => [key(path.basename(file, '.yaml')), { $ref: path.join(root, dir, file) }]),
    );
  const doc = {
    openapi: '3.1.0',
    // Note: no API of its own; OpenAPI asks for an info object, and nothing reads it.
    info: { title: 'Merchant Payments API: what both variants share', version: '1.0.0' },
    webhooks: entries('packages/contract/openapi/webhooks', (name) =>
      name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase()),
    ),
    components: { schemas: entries('packages/contract/openapi/components/schemas', (name) => name) },
  };
  const temp = mkdtempSync(path.join(tmpdir(), 'payments-shared-'));
  try {
    writeFileSync(path.join(temp, 'shared.yaml'), stringify(doc));
    redoclyBundle('shared', path.join(temp, 'shared.yaml'), outputPath(sharedBundle, outDir));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

const outputPath = (output, outDir) => (outDir ? path.join(outDir, path.basename(output)) : path.join(root, output));

function redoclyBundle(name, input, output) {
  mkdirSync(path.dirname(output), { recursive: true });
  const { status, stderr } = runTool('@redocly/cli', 'redocly', ['bundle', input, '--output', output], {
    capture: true,
  });
  if (status !== 0) throw new Error(`redocly bundle ${name} failed:\n${stderr}`);
  console.log(`bundled ${name} -> ${path.relative(root, output)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    bundle();
    bundleShared();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
