// Starts a cluster and waits to be killed, for cluster.test.ts to check that a killed test run leaves no PostgreSQL.
import { startCluster } from './cluster.js';

const cluster = await startCluster();
process.stdout.write(`${JSON.stringify({ pid: cluster.pid, dir: cluster.dir })}\n`);
setInterval(() => {}, 60_000);
