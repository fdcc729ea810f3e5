import 'reflect-metadata';
import { createApp } from './app';
import { NodeIdentity } from './chain/node-identity.service';
import { NodeCrypto } from './chain/node-crypto.service';
import { ConfigError, loadConfig, type AppConfig } from './config';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);

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

main().catch((error: unknown) => {
  process.stderr.write(`The node could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
