// What the generated guides share: importing the TypeScript sources they render from, and writing the guide when the
// script is run rather than imported (the drift tests import renderGuide).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { root } from './tools.mjs';

/** Runs `render` with TypeScript imports enabled (tsx), and disables them again. */
export async function withTypeScript(render) {
  const unregister = register();
  try {
    return await render();
  } finally {
    await unregister();
  }
}

/** Writes `target` (relative to the repository root) from `render` when `moduleUrl` is the script node was started with. */
export async function writeGuideWhenRun(moduleUrl, target, render) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  writeFileSync(path.join(root, target), await render());
  console.log(`wrote ${target}`);
}
