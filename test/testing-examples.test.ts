// examples/testing-vitest.test.ts, the vitest file of docs/testing.md, runs here as written: importing it registers its
// tests in this file. test/package/tarball.test.ts runs it with vitest, and its node:test twin
// (examples/testing-node.test.mjs) with `node --test`, in a project that installs the packed tarball.
import '../examples/testing-vitest.test.js';
