// Moves the README's commands and files off the default ports, so that two test runs on one machine never collide:
// each default port the README names, or that one of its commands listens on when it names none, becomes the port
// given for it. CONTRIBUTING.md ("The users' README and its test") states the rule.
import net from 'node:net';
import getPort from 'get-port';

/** The ports the README's commands use: their defaults, and those it names. */
export const README_PORTS = [3000, 4010, 4011, 4020, 4030, 4040] as const;

/** The port each default one is moved to. */
export type PortMap = Record<(typeof README_PORTS)[number], number>;

const NAMED = new RegExp(
  `(?<=(?:127\\.0\\.0\\.1:|localhost:|--port |--webhook-port ))(${README_PORTS.join('|')})\\b`,
  'g',
);

/** Text with every port it names in a URL or a `--port` flag moved; other numbers are left as they are. */
export function movePortsIn(text: string, ports: PortMap): string {
  return text.replace(NAMED, (port) => String(ports[Number(port) as keyof PortMap]));
}

/**
 * A command with its ports moved: those it names, and a `--port` (or the conformance kit's `--webhook-port`) added
 * where a server of ours would take its default.
 */
export function moveCommandPorts(script: string, ports: PortMap): string {
  const moved = movePortsIn(script, ports);
  // Note: a command's flags end where its own `-- <command>` starts, or at a single quote (the end of an `sh -c` script), a pipe or the end of the line.
  return moved.replace(
    /merchant-payments (mock|sandbox|conformance|webhook listen)\b((?:(?! -- )[^\n;&|'])*)/g,
    (whole, command: string, flags: string) => {
      const flag = command === 'conformance' ? '--webhook-port' : '--port';
      if (flags.includes(`${flag} `) || (command === 'conformance' && !flags.includes('--sandbox'))) return whole;
      const port =
        command === 'mock'
          ? /--variant b\b/.test(flags)
            ? ports[4011]
            : ports[4010]
          : command === 'sandbox'
            ? ports[4020]
            : command === 'conformance'
              ? ports[4030]
              : ports[4040];
      return `merchant-payments ${command} ${flag} ${port}${flags}`;
    },
  );
}

/** The environment that moves the examples' own servers (receiver.mjs and sandbox-flow.mjs read PORT). */
export function portEnv(ports: PortMap): NodeJS.ProcessEnv {
  return { PORT: String(ports[3000]) };
}

/**
 * Free ports for the README's defaults. Variant A's and B's mocks take two ports in a row (`--variant a,b --port N`
 * serves B on N + 1), so 4011 is moved next to 4010.
 */
export async function freeReadmePorts(): Promise<PortMap> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const [p3000, p4010, p4020, p4030, p4040] = (await Promise.all(Array.from({ length: 5 }, () => getPort()))) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const ports: PortMap = { 3000: p3000, 4010: p4010, 4011: p4010 + 1, 4020: p4020, 4030: p4030, 4040: p4040 };
    const taken = new Set(Object.values(ports));
    if (taken.size === README_PORTS.length && (await portFree(p4010 + 1))) return ports;
  }
  throw new Error("found no two free ports in a row for the README's mocks after 20 tries");
}

/** True when nothing listens on `port` of 127.0.0.1. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
