import { createApp } from './app';
import { NodeIdentity } from './chain/node-identity.service';
import { NodeCrypto } from './chain/node-crypto.service';
import type { AppConfig } from './config';
import { stopOnSignals } from './ops/graceful-stop';

/** Builds the node, serves it, and prints where it listens and who it is. */
export async function startNode(config: AppConfig): Promise<void> {
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  stopOnSignals(app, config.shutdownTimeoutMs);

  const { node, founder } = app.get(NodeIdentity).keys;
  const crypto = app.get(NodeCrypto);
  const database = config.databaseUrl
    ? 'PostgreSQL server (DATABASE_URL)'
    : `embedded, in ${config.dataDir}/pgdata`;
  process.stdout.write(
    [
      '',
      `IBAX node listening on http://${config.host}:${config.port}  (REST /api/v2, JSON-RPC /)`,
      `  network id       ${config.networkId}   crypto ${config.cryptoer} + ${config.hasher}`,
      `  node account     ${crypto.address(node.keyId)}   (key ${node.keyId})`,
      `  founder account  ${crypto.address(founder.keyId)}   (key ${founder.keyId})`,
      `  founder key file ${founder.file}`,
      `  database         ${database}`,
      '',
    ].join('\n'),
  );
}
