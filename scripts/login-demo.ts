/**
 * Logs the founder in to a running node over REST and over JSON-RPC, with the key the node generated.
 *   npm run login-demo                       (node at http://127.0.0.1:7079, key in ./data/founder.key)
 *   IBAX_NODE=http://host:port DATA_DIR=/path npm run login-demo      (or npm run login-demo -- --node <url>)
 * The node's address is given as to the CLI (--node, IBAX_NODE), so one setting serves both. It asks the
 * node which curve and hasher it uses (getuid), so it works with either crypto setting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CryptoerName, HasherName } from '../src/crypto';
import { IbaxClient } from '../src/sdk';
import { errorText, nodeAddress } from '../src/sdk/cli/commands';

function founderKeyOf(dataDir: string): string {
  const keyFile = join(dataDir, 'founder.key');
  try {
    return readFileSync(keyFile, 'utf8').trim();
  } catch (error) {
    throw new Error(
      `cannot read the founder key ${keyFile} (${(error as NodeJS.ErrnoException).code}): ` +
        `set DATA_DIR to the node's data directory`,
    );
  }
}

async function main(url: string): Promise<void> {
  // The node first: with no node running, its missing data directory is not the news.
  const probe = await new IbaxClient(url).get('/api/v2/getuid');
  if (probe.status !== 200) throw new Error(`${url} did not answer getuid: ${probe.text}`);
  const founderKey = founderKeyOf(process.env.DATA_DIR ?? './data');
  const crypto = { cryptoer: probe.body.cryptoer as CryptoerName, hasher: probe.body.hasher as HasherName };

  const rest = new IbaxClient(url, crypto);
  const session = await rest.login(founderKey);
  console.log(`REST login as ${session.account} (key ${session.keyId}) in ecosystem ${session.ecosystemId}`);
  console.log(JSON.stringify({ ...session.raw, token: `${session.token.slice(0, 16)}…` }, null, 2));
  const status = await rest.get('/api/v2/auth/status');
  console.log(`auth/status: ${status.text}`);

  const rpc = new IbaxClient(url, crypto);
  const rpcSession = await rpc.loginRpc(founderKey);
  console.log(`JSON-RPC login (ibax.login) as ${rpcSession.account}`);
  console.log(`ibax.getAuthStatus: ${JSON.stringify(await rpc.rpc('ibax.getAuthStatus'))}`);
  console.log(`ibax.getKeyInfo: ${JSON.stringify(await rpc.rpc('ibax.getKeyInfo', [rpcSession.account]))}`);
}

let url: string | undefined;
try {
  url = nodeAddress(parseArgs({ options: { node: { type: 'string' } } }).values.node, process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
main(url).catch((error: unknown) => {
  console.error(errorText(error, url));
  process.exit(1);
});
