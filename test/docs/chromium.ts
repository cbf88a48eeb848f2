// Which Chromium the browser tests drive: CHROMIUM_PATH when set, else the first of the usual places that exists.
import { accessSync, constants } from 'node:fs';
import { chromium } from 'playwright-core';

/** How the browser tests launch it: headless, without the sandbox a container lacks, and with nothing reaching the network by itself. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The environment variable that names the Chromium (or Chrome) executable to use. */
export const CHROMIUM_PATH_VARIABLE = 'CHROMIUM_PATH';

/** Where a Chromium is looked for when CHROMIUM_PATH is not set, in order. */
export function defaultChromiumPaths(): string[] {
  return [
    // Debian's chromium, as .ci/run installs it.
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    // Where `npx playwright install chromium` puts the browser of this playwright-core version.
    chromium.executablePath(),
  ];
}

/** The executable to launch; throws an Error naming CHROMIUM_PATH and every path tried when there is none. */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  candidates: readonly string[] = defaultChromiumPaths(),
): string {
  const chosen = env[CHROMIUM_PATH_VARIABLE];
  if (chosen !== undefined && chosen !== '') {
    if (isExecutable(chosen)) return chosen;
    throw new Error(
      `${CHROMIUM_PATH_VARIABLE} is set to ${chosen}, which is not an executable file: point it at a Chromium or Chrome binary.`,
    );
  }
  const found = candidates.find(isExecutable);
  if (found) return found;
  throw new Error(
    `No Chromium found for the browser tests; tried: ${candidates.join(', ')}. Set ${CHROMIUM_PATH_VARIABLE} to a Chromium ` +
      "or Chrome executable, or install Debian's chromium package as .ci/run does.",
  );
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
