// Reads the users' README as a list of steps, in order: the files it tells the user to create and the commands it
// tells them to run. CONTRIBUTING.md ("The users' README and its test") states the rules.

/** A file the README tells the user to create: a ```js block right after a line holding only `name`: */
export interface ReadmeFile {
  name: string;
  content: string;
}

/** A ```sh block: run as is, started as a server for the rest of its section, or skipped for a stated reason. */
export interface ReadmeCommand {
  script: string;
  /** The `## ` section it is in, where a background server is stopped at the end of. */
  section: string;
  mode: 'run' | 'background' | 'skip';
  /** Why a skipped block is not run, as the README's marker says. */
  reason?: string;
}

export type ReadmeStep = ({ kind: 'file' } & ReadmeFile) | ({ kind: 'command' } & ReadmeCommand);

const FILE_LINE = /^`([\w.-]+\.mjs)`:$/;
const SKIP_MARKER = /^<!-- readme-test: skip: (.+) -->$/;
const BACKGROUND_MARKER = '<!-- readme-test: background -->';

interface Block {
  lang: string;
  content: string;
  /** The last non-blank line before the opening fence. */
  before: string;
  section: string;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  let section = '';
  let before = '';
  let open: { lang: string; lines: string[]; before: string } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line === '```') {
        found.push({
          lang: open.lang,
          content: open.lines.map((l) => `${l}\n`).join(''),
          before: open.before,
          section,
        });
        open = undefined;
        before = '';
      } else open.lines.push(line);
      continue;
    }
    const fence = /^```(\w*)$/.exec(line);
    if (fence) open = { lang: fence[1]!, lines: [], before };
    else if (line.startsWith('## ')) section = line.slice(3);
    if (!fence && line.trim() !== '') before = line.trim();
  }
  if (open) throw new Error('README.md has a code block that is never closed');
  return found;
}

/** Every file and command of the README, in the order a reader meets them. */
export function readmeSteps(markdown: string): ReadmeStep[] {
  return blocks(markdown).flatMap((block): ReadmeStep[] => {
    if (block.lang === 'js') {
      const name = FILE_LINE.exec(block.before)?.[1];
      if (!name)
        throw new Error(
          `README.md: a js block must follow a line holding only its file name, as \`name.mjs\`:, not "${block.before}"`,
        );
      return [{ kind: 'file', name, content: block.content }];
    }
    if (block.lang !== 'sh') return [];
    const skip = SKIP_MARKER.exec(block.before);
    const mode = skip ? 'skip' : block.before === BACKGROUND_MARKER ? 'background' : 'run';
    return [
      { kind: 'command', script: block.content, section: block.section, mode, ...(skip ? { reason: skip[1] } : {}) },
    ];
  });
}

/** The files the README tells the user to create. */
export function readmeFiles(markdown: string): ReadmeFile[] {
  return readmeSteps(markdown).flatMap((step) =>
    step.kind === 'file' ? [{ name: step.name, content: step.content }] : [],
  );
}

/** The commands of the README's ```yaml blocks (`- run: <command>`). */
export function yamlRunCommands(markdown: string): string[] {
  return blocks(markdown)
    .filter((block) => block.lang === 'yaml')
    .flatMap((block) => [...block.content.matchAll(/^\s*-?\s*run: (.+)$/gm)].map((match) => match[1]!.trim()));
}
