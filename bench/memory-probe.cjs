// Preloaded into the node by bench/startup.ts (NODE_OPTIONS=--require): writes the process's memory
// breakdown to MEMORY_PROBE_FILE twice a second, so the benchmark can tell the JS heap from the
// buffers outside it (PGlite's WebAssembly memory counts in external and arrayBuffers).
/* global setInterval */
const { writeFileSync } = require('node:fs');

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const write = () => writeFileSync(file, JSON.stringify(process.memoryUsage()));
  write();
  setInterval(write, 500).unref();
}
