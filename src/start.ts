import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { NodeIdentity } from './chain/node-identity.service';
import { NodeCrypto } from './chain/node-crypto.service';
import type { AppConfig } from './config';
import { stopOnSignals } from './ops/graceful-stop';
import { listenFailure } from './ops/startup-failure';
import { embeddedClusterDir } from './database/embedded-postgres';

/** Builds the node, serves it, and logs where it listens and who it is. */
export async function startNode(config: AppConfig): Promise<void> {
  const app = await createApp(config);
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    await app.close().catch(() => {});
    throw listenFailure(error, config);
  }
  stopOnSignals(app, config.shutdownTimeoutMs);

  const { node, founder } = app.get(NodeIdentity).keys;
  const crypto = app.get(NodeCrypto);
  // A node that took its genesis from a peer has no founder key: the chain's founder is the first node's.
  const founderLines = founder
    ? {
        founderAccount: `${crypto.address(founder.keyId)} (key ${founder.keyId})`,
        founderKeyFile: founder.file,
      }
    : { genesisFrom: config.network.genesisPeer };
  new Logger('Node').log({
    msg: `IBAX node listening on http://${config.host}:${config.port}  (REST /api/v2, JSON-RPC /)`,
    networkId: String(config.networkId),
    crypto: `${config.cryptoer} + ${config.hasher}`,
    nodeAccount: `${crypto.address(node.keyId)} (key ${node.keyId})`,
    ...founderLines,
    database: config.databaseUrl
      ? 'PostgreSQL server (DATABASE_URL)'
      : `embedded PostgreSQL, in ${embeddedClusterDir(config.dataDir)}`,
  });
}
