import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC instead of esbuild: Nest's dependency injection needs emitDecoratorMetadata, which esbuild does not emit.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The embedded database is one PGlite instance per process; e2e files get a process each.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
