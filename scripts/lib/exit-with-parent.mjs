// Preloaded with `node --import` into child servers: exit as soon as the parent closes our stdin.
// Note: the kernel closes the pipe whenever the parent dies (Ctrl-C, SIGKILL, crash), so the child
// cannot outlive it; the stdin handle is unref'd so it never keeps the child alive by itself.
const exit = () => process.exit(0);
process.stdin.on('end', exit);
process.stdin.on('close', exit);
process.stdin.on('error', exit);
process.stdin.resume();
process.stdin.unref?.();
