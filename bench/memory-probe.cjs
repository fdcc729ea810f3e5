// Preloaded into the node by bench/startup.ts (NODE_OPTIONS=--require): writes the process's memory
// breakdown to MEMORY_PROBE_FILE twice a second, so the benchmark can tell the JS heap from the
// buffers outside it (WebAssembly memory counts in external and arrayBuffers), and the CPU time
// the process has used (less sensitive than the start's wall time to what else the machine runs).
/* global setInterval */
const { writeFileSync } = require('node:fs');

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const write = () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ ...process.memoryUsage(), cpuMs: (user + system) / 1000 }));
  };
  write();
  setInterval(write, 500).unref();
}
