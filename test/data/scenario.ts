import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { IbaxClient } from '../../src/sdk';
import type { TestNode } from '../support/node';

/**
 * Data made by real transactions in two ecosystems, for the read tests: in each ecosystem a table
 * `items` (every column type, a column only MainCondition may read) filled by a contract, a table `vault`
 * only MainCondition may read, and an updated row (so that the journal has history). Ecosystem 1 also
 * gets a stranger: a registered key that is neither founder nor developer.
 */
export interface Scenario {
  founderKey: string;
  /** The founder's session in ecosystem 1, and in the second ecosystem (the founder made it). */
  eco1: IbaxClient;
  eco2: IbaxClient;
  eco2Id: string;
  stranger: IbaxClient;
}

export const ITEM_COLUMNS = [
  { name: 'name', type: 'varchar', conditions: 'true' },
  { name: 'amount', type: 'money', conditions: 'true' },
  { name: 'weight', type: 'number', conditions: 'true' },
  { name: 'data', type: 'json', conditions: 'true' },
  { name: 'created', type: 'datetime', conditions: 'true' },
  { name: 'image', type: 'bytea', conditions: 'true' },
  { name: 'ratio', type: 'double', conditions: 'true' },
];
export const SECRET_READ = 'ContractConditions("MainCondition")';

const ADD_ITEM = `contract AddItem {
    data {
        Name string
        Amount money
        Weight int
        Color string
        Secret string
        Image string
        Created int
    }
    action {
        var values map
        values = {"name": $Name, "amount": $Amount, "weight": $Weight, "data": {"color": $Color, "size": {"w": $Weight}}, "secret": $Secret, "image": $Image}
        if $Created > 0 {
            values["timestamp created"] = $Created
        }
        $result = DBInsert("items", values)
    }
}`;

const SET_WEIGHT = `contract SetWeight {
    data {
        Id int
        Weight int
        Secret string
    }
    action {
        DBUpdate("items", $Id, {"weight": $Weight, "secret": $Secret})
    }
}`;

const ADD_VAULT = `contract AddVault {
    data {
        Label string
    }
    action {
        $result = DBInsert("vault", {"label": $Label})
    }
}`;

export interface ItemInput {
  Name: string;
  Amount: string;
  Weight: string;
  Color: string;
  Secret: string;
  Image: string;
  Created: string;
}

async function mustCall(client: IbaxClient, key: string, contract: string, args: Record<string, string>) {
  const answer = await client.call(key, contract, args);
  expect(answer.status.errmsg, `${contract} ${JSON.stringify(args)}`).toBeUndefined();
  expect(answer.status.blockid).not.toBe('');
  return answer.status.result;
}

/** Sends several calls at once (one block or a few) and waits until each is in a block. */
async function mustCallAll(client: IbaxClient, key: string, contract: string, calls: Record<string, string>[]) {
  const txs = [];
  for (const args of calls) txs.push((await client.buildCall(key, contract, args)).bytes);
  const hashes = await client.sendTransactions(txs);
  const statuses = await client.waitForTransactions(hashes);
  for (const hash of hashes) expect(statuses[hash].errmsg, contract).toBeUndefined();
}

/** Tables, columns, contracts and rows of one ecosystem, each by its system contract or our contract. */
async function fillEcosystem(client: IbaxClient, key: string, items: ItemInput[], vault: string[]) {
  await mustCall(client, key, '@1NewTable', {
    ApplicationId: '1',
    Name: 'items',
    Columns: JSON.stringify(ITEM_COLUMNS),
    Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true' }),
  });
  await mustCall(client, key, '@1NewColumn', {
    TableName: 'items',
    Name: 'secret',
    Type: 'text',
    Permissions: JSON.stringify({ update: 'true', read: SECRET_READ }),
  });
  await mustCall(client, key, '@1NewTable', {
    ApplicationId: '1',
    Name: 'vault',
    Columns: JSON.stringify([{ name: 'label', type: 'varchar', conditions: 'true' }]),
    Permissions: JSON.stringify({ insert: 'true', update: 'true', new_column: 'true', read: SECRET_READ }),
  });
  for (const source of [ADD_ITEM, SET_WEIGHT, ADD_VAULT]) {
    await mustCall(client, key, '@1NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' });
  }
  // One at a time: row ids follow the order of the calls.
  for (const item of items) await mustCall(client, key, 'AddItem', { ...item });
  await mustCallAll(
    client,
    key,
    'AddVault',
    vault.map((label) => ({ Label: label })),
  );
}

export const ECO1_ITEMS: ItemInput[] = [
  { Name: 'anvil', Amount: '70', Weight: '70', Color: 'black', Secret: 's-anvil', Image: 'img', Created: '1700000000' },
  { Name: 'feather', Amount: '1', Weight: '1', Color: 'white', Secret: 's-feather', Image: '', Created: '0' },
  { Name: "o'clock", Amount: '5', Weight: '5', Color: 'grey', Secret: 's-clock', Image: '', Created: '1600000000' },
];
export const ECO2_ITEMS: ItemInput[] = [
  { Name: 'eco2-alpha', Amount: '100', Weight: '100', Color: 'red', Secret: 's-alpha', Image: '', Created: '0' },
  { Name: 'eco2-beta', Amount: '200', Weight: '200', Color: 'blue', Secret: 's-beta', Image: '', Created: '0' },
];

export async function buildScenario(node: TestNode): Promise<Scenario> {
  const founderKey = node.founderKey;
  const eco1 = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await eco1.login(founderKey);
  const eco2Id = await mustCall(eco1, founderKey, 'NewEcosystem', { Name: 'second' });
  const eco2 = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await eco2.login(founderKey, { ecosystem: Number(eco2Id) });
  await fillEcosystem(eco1, founderKey, ECO1_ITEMS, ['gold']);
  await fillEcosystem(eco2, founderKey, ECO2_ITEMS, ['eco2-silver']);
  await mustCall(eco1, founderKey, 'SetWeight', { Id: '1', Weight: '71', Secret: 's-anvil-2' });
  const stranger = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await stranger.login(randomBytes(32).toString('hex'));
  return { founderKey, eco1, eco2, eco2Id, stranger };
}
