#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npx ibax <command>`: the command-line client (scripts/cli.ts), without npm's banner on stdout: its JSON
 * pipes. In a development install it runs from the TypeScript sources (@swc-node/register, as `npm run cli`
 * does): an edit takes effect at once, with nothing to rebuild (≈ 0.6 s a command, mostly compiling). An
 * install without development dependencies (the container's) has no TypeScript compiler; it runs the client
 * that `npm run build` bundled into dist/cli.js.
 */
const path = require('node:path');

function hasPackage(name) {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

if (hasPackage('@swc-node/register')) {
  // The loader reads the compiler options from tsconfig.json in the working directory (or this variable):
  // the client's are the project's, wherever the command is run from.
  process.env.SWC_NODE_PROJECT = path.join(__dirname, '..', 'tsconfig.json');
  require('@swc-node/register');
  require('../scripts/cli.ts');
} else {
  require('../dist/cli.js');
}
