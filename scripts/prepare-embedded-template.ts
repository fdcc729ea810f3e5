/**
 * Run by `npm ci` / `npm install` (postinstall): makes the fresh database cluster that a first start on the
 * embedded database copies instead of running PGlite's initdb (src/database/embedded-init.ts). Failing
 * here only costs that time later, so it never fails the install.
 */
import { prepareClusterTemplate } from '../src/database/embedded-init';

const started = Date.now();
prepareClusterTemplate()
  .then((template) => {
    process.stdout.write(`embedded database template ready in ${Date.now() - started} ms: ${template}\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(`no embedded database template (a first start will run initdb): ${String(error)}\n`);
  });
