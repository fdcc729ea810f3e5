// Preloaded into the node by bench/startup.ts (NODE_OPTIONS=--require: --import would
// make Node 20 load the node's TypeScript entry as an ES module): writes the process's memory
// breakdown to MEMORY_PROBE_FILE twice a second, so the benchmark can tell the JS heap from the
// buffers outside it (PGlite's WebAssembly memory counts in external and arrayBuffers).
/* global process, require, setInterval */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
const { writeFileSync } = require('node:fs');

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const write = () => writeFileSync(file, JSON.stringify(process.memoryUsage()));
  write();
  setInterval(write, 500).unref();
}
