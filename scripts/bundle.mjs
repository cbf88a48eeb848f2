// Bundles each API listed in redocly.yaml into generated/openapi/<api>.yaml.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { apis } from './lib/apis.mjs';
import { requireFile, root, runTool } from './lib/tools.mjs';

/** Bundles every API (or the named ones) into its `output` file; throws on failure. */
export function bundle(names = Object.keys(apis), outDir) {
  for (const name of names) {
    const api = apis[name];
    if (!api) throw new Error(`Unknown API ${name}; known: ${Object.keys(apis).join(', ')}`);
    requireFile(api.root, 'the spec root listed in redocly.yaml');
    const output = outDir ? path.join(outDir, path.basename(api.output)) : path.join(root, api.output);
    mkdirSync(path.dirname(output), { recursive: true });
    const { status, stderr } = runTool('@redocly/cli', 'redocly', ['bundle', api.root, '--output', output], { capture: true });
    if (status !== 0) throw new Error(`redocly bundle ${name} failed:\n${stderr}`);
    console.log(`bundled ${name} -> ${path.relative(root, output)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    bundle();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
