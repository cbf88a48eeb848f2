// A `-- command` for the process tests: starts a grandchild listening on 127.0.0.1:<port>, and once it listens either
// checks the mock (MERCHANT_PAYMENTS_MOCK_URL) and exits with <code>, or waits until it is stopped.
//   node listener-command.mjs <port> exit <code> | wait [stubborn]
// `stubborn` makes the grandchild ignore SIGTERM, so only SIGKILL stops it.
import { spawn } from 'node:child_process';

const [port, mode, option] = process.argv.slice(2);
const listener = [
  `require('node:net').createServer().listen(${Number(port)}, '127.0.0.1', () => console.log('listening'));`,
  option === 'stubborn' ? "process.on('SIGTERM', () => {});" : '',
].join('\n');
const grandchild = spawn(process.execPath, ['-e', listener], { stdio: ['ignore', 'pipe', 'inherit'] });
grandchild.stdout.once('data', async () => {
  grandchild.stdout.destroy();
  grandchild.unref();
  if (mode === 'wait') return setInterval(() => {}, 60_000);
  const answer = await fetch(`${process.env.MERCHANT_PAYMENTS_MOCK_URL}/payments`, {
    headers: { Authorization: 'Bearer t' },
  });
  process.exit(answer.status === 200 ? Number(option) : 1);
});
