/**
 * Logs the founder in to a running node over REST and over JSON-RPC, with the key the node generated.
 *   npm run login-demo                       (node at http://127.0.0.1:7079, key in ./data/founder.key)
 *   NODE_URL=http://host:port DATA_DIR=/path npm run login-demo
 * It asks the node which curve and hasher it uses (getuid), so it works with either crypto setting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CryptoerName, HasherName } from '../src/crypto';
import { IbaxClient } from '../src/sdk';

async function main(): Promise<void> {
  const url =
    process.env.NODE_URL ?? `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? '7079'}`;
  const keyFile = join(process.env.DATA_DIR ?? './data', 'founder.key');
  const founderKey = readFileSync(keyFile, 'utf8').trim();

  const probe = await new IbaxClient(url).get('/api/v2/getuid');
  if (probe.status !== 200) throw new Error(`${url} did not answer getuid: ${probe.text}`);
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

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
