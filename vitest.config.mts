import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

/**
 * The hostile-contract suite measures how long the node keeps others waiting and how much memory it takes,
 * and the network suites run three nodes on one-second slots: they run after everything else, alone, so
 * that other test files do not share the two cores with them.
 */
const ALONE = [
  'test/chain/hostile-contracts.e2e.ts',
  'test/network/honor-nodes.e2e.ts',
  'test/network/under-load.e2e.ts',
];

// SWC instead of esbuild: Nest's dependency injection needs emitDecoratorMetadata, which esbuild does not emit.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The embedded database is one PGlite instance per process; e2e files get a process each.
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.spec.ts', 'test/**/*.e2e.ts'],
          exclude: ALONE,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ALONE,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
