import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { addressToId, createHasher, keyIdFromPublicKey, keyIdToAddress, parsePublicKey } from '../../crypto';
import { tableMetadataRows } from '../../chain/genesis/table-permissions';
import { resolveTable } from '../host/tables';
import {
  panic,
  Vm,
  VmError,
  type BuiltinContext,
  type BuiltinDef,
  type TxContext,
  type Value,
} from '../../vm';
import { SYSTEM_CONTRACTS } from './index';

/**
 * The system contracts run against a small in-memory stand-in for the host built-ins, to check that their
 * logic does what docs/contracts.md says. The real built-ins (src/contracts/host) are tested with the database.
 */

type Row = Map<string, string>;

const hasher = createHasher('KECCAK256');
const pubToId = (hex: string): bigint => keyIdFromPublicKey(hex, hasher);

/** The ContractAccess lists of the shared tables' insert/update permissions (genesis `1_tables`). */
const TABLE_PERMISSIONS = new Map(
  tableMetadataRows().map((row) => [row.name, JSON.parse(row.permissions) as Record<string, string>]),
);

function text(value: Value): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (value instanceof Map) return JSON.stringify(Object.fromEntries(value));
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

function txEcosystem(ctx: BuiltinContext): bigint {
  return ctx.getVar('ecosystem_id') as bigint;
}

/** Column defaults of the schema that the contracts rely on. */
const COLUMN_DEFAULTS: Record<string, Record<string, string>> = {
  roles: { deleted: '0' },
  roles_participants: { deleted: '0' },
  applications: { deleted: '0' },
  keys: { amount: '0', deleted: '0', blocked: '0' },
};

class FakeHost {
  readonly tables = new Map<string, Row[]>();
  private readonly ids = new Map<string, number>();
  readonly platform = new Map<string, string>();
  /** Tables written, with the contract that wrote them, for the permission check. */
  readonly writes: string[] = [];

  constructor(readonly vm: Vm) {}

  rows(physical: string): Row[] {
    let rows = this.tables.get(physical);
    if (!rows) this.tables.set(physical, (rows = []));
    return rows;
  }

  /** Rows of a table as contracts name it, seen from ecosystem `eco`. */
  find(table: string, eco: bigint, where: Record<string, string> = {}): Row[] {
    const resolved = resolveTable(table, eco);
    return this.rows(resolved.physical).filter(
      (row) =>
        (!resolved.shared || row.get('ecosystem') === String(resolved.ecosystem)) &&
        Object.entries(where).every(([k, v]) => row.get(k) === v),
    );
  }

  seed(table: string, eco: bigint, values: Record<string, string | bigint | number>): Row {
    const resolved = resolveTable(table, eco);
    const row: Row = new Map();
    if (!('id' in values)) row.set('id', String(this.nextId(resolved.physical)));
    for (const [k, v] of Object.entries(values)) row.set(k, String(v));
    if (resolved.shared) row.set('ecosystem', String(resolved.ecosystem));
    this.rows(resolved.physical).push(row);
    return row;
  }

  private nextId(physical: string): number {
    const next = (this.ids.get(physical) ?? 0) + 1;
    this.ids.set(physical, next);
    return next;
  }

  private matches(row: Row, where: Map<string, Value>): boolean {
    for (const [key, condition] of where) {
      let actual: string | undefined;
      if (key.includes('->')) {
        const [column, ...path] = key.split('->');
        let current: unknown = JSON.parse(row.get(column) || '{}');
        for (const part of path) current = (current as Record<string, unknown> | undefined)?.[part];
        actual = current === undefined ? undefined : String(current);
      } else {
        actual = row.get(key);
      }
      if (condition instanceof Map) {
        for (const [op, operand] of condition) {
          if (op === '$neq' && actual === text(operand)) return false;
          if (op !== '$neq') throw new Error(`fake DBSelect: operator ${op}`);
        }
      } else if (actual !== text(condition)) {
        return false;
      }
    }
    return true;
  }

  private checkWrite(ctx: BuiltinContext, name: string, kind: 'insert' | 'update'): void {
    const permission = TABLE_PERMISSIONS.get(name)?.[kind];
    const running = ctx.contract?.key ?? '';
    this.writes.push(`${running}:${kind}:${name}`);
    const access = /^ContractAccess\((.*)\)$/.exec(permission ?? '');
    if (!access) return;
    const allowed = access[1].split(',').map((s) => s.trim().replace(/^"|"$/g, ''));
    if (!allowed.includes(running)) throw panic(`Access denied: ${running} may not ${kind} ${name}`);
  }

  private resolve(ctx: BuiltinContext, table: Value) {
    return resolveTable(text(table), txEcosystem(ctx));
  }

  private rowById(ctx: BuiltinContext, table: Value, id: Value): Row | undefined {
    const resolved = this.resolve(ctx, table);
    return this.rows(resolved.physical).find(
      (row) =>
        row.get('id') === text(id) &&
        (!resolved.shared || row.get('ecosystem') === String(resolved.ecosystem)),
    );
  }

  private async evalIn(ctx: BuiltinContext, condition: string): Promise<boolean> {
    return this.vm.evalCondition(condition, { tx: ctx.tx, ecosystem: Number(txEcosystem(ctx)) });
  }

  param(eco: bigint, name: string): string {
    return this.find('parameters', eco, { name })[0]?.get('value') ?? '';
  }

  builtins(): BuiltinDef[] {
    const changing: Record<string, string> = {
      pages: 'changing_page',
      menu: 'changing_menu',
      snippets: 'changing_snippets',
      contracts: 'changing_contracts',
      parameters: 'changing_parameters',
      app_params: 'changing_app_params',
      languages: 'changing_language',
      tables: 'changing_tables',
    };
    return [
      {
        name: 'DBSelect',
        fn: (ctx, table, columns, id, _order, _offset, limit, where) => {
          const resolved = this.resolve(ctx, table);
          const wanted =
            text(columns) === ''
              ? null
              : text(columns)
                  .split(',')
                  .map((c) => c.trim());
          const found = this.rows(resolved.physical).filter(
            (row) =>
              (!resolved.shared || row.get('ecosystem') === String(resolved.ecosystem)) &&
              (id === 0n || row.get('id') === text(id)) &&
              this.matches(row, (where as Map<string, Value> | null) ?? new Map()),
          );
          const max = Number(limit) > 0 ? Number(limit) : 25;
          return found.slice(0, max).map((row) => {
            const out = new Map<string, Value>();
            for (const [k, v] of row) if (!wanted || wanted.includes(k)) out.set(k, v);
            return out;
          });
        },
      },
      {
        name: 'DBInsert',
        writesDb: true,
        fn: (ctx, table, values) => {
          const resolved = this.resolve(ctx, table);
          this.checkWrite(ctx, resolved.name, 'insert');
          const row: Row = new Map(Object.entries(COLUMN_DEFAULTS[resolved.name] ?? {}));
          for (const [k, v] of values as Map<string, Value>) row.set(k.replace(/^timestamp /, ''), text(v));
          if (resolved.name !== 'keys') row.set('id', String(this.nextId(resolved.physical)));
          if (resolved.shared) row.set('ecosystem', String(resolved.ecosystem));
          const rows = this.rows(resolved.physical);
          const unique = resolved.name === 'keys' ? ['id'] : resolved.name === 'members' ? ['account'] : [];
          for (const column of unique) {
            if (
              rows.some(
                (r) => r.get('ecosystem') === row.get('ecosystem') && r.get(column) === row.get(column),
              )
            ) {
              throw panic(`duplicate ${column} in ${resolved.physical}`);
            }
          }
          rows.push(row);
          return BigInt(row.get('id')!);
        },
      },
      {
        name: 'DBUpdate',
        writesDb: true,
        fn: (ctx, table, id, values) => {
          this.checkWrite(ctx, this.resolve(ctx, table).name, 'update');
          const row = this.rowById(ctx, table, id);
          if (!row) throw panic(`no row ${text(id)} in ${text(table)}`);
          for (const [k, v] of values as Map<string, Value>) {
            if (k.startsWith('+') || k.startsWith('-')) {
              const column = k.slice(1);
              const current = BigInt(row.get(column) || '0');
              const delta = BigInt(text(v));
              const next = k.startsWith('+') ? current + delta : current - delta;
              if (next < 0n) throw panic(`${column} would be negative`);
              row.set(column, next.toString());
            } else {
              row.set(k.replace(/^timestamp /, ''), text(v));
            }
          }
        },
      },
      {
        name: 'DBUpdateExt',
        writesDb: true,
        fn: (ctx, table, where, values) => {
          const resolved = this.resolve(ctx, table);
          this.checkWrite(ctx, resolved.name, 'update');
          for (const row of this.rows(resolved.physical)) {
            if (resolved.shared && row.get('ecosystem') !== String(resolved.ecosystem)) continue;
            if (!this.matches(row, where as Map<string, Value>)) continue;
            for (const [k, v] of values as Map<string, Value>) row.set(k, text(v));
          }
        },
      },
      { name: 'EcosysParam', fn: (ctx, name) => this.param(txEcosystem(ctx), text(name)) },
      {
        name: 'AppParam',
        fn: (_ctx, app, name, eco) =>
          this.find('app_params', eco as bigint, { app_id: text(app), name: text(name) })[0]?.get('value') ??
          '',
      },
      { name: 'SysParamString', fn: (_ctx, name) => this.platform.get(text(name)) ?? '' },
      { name: 'SysParamInt', fn: (_ctx, name) => BigInt(this.platform.get(text(name)) || '0') },
      {
        name: 'ContractConditions',
        fn: async (ctx, ...names) => {
          for (const name of names) {
            const key = text(name).startsWith('@') ? text(name) : `@${txEcosystem(ctx)}${text(name)}`;
            await this.vm.runConditions(key, { tx: ctx.tx });
          }
          return true;
        },
      },
      {
        name: 'RoleAccess',
        fn: (ctx, ...ids) => {
          const account = ctx.getVar('account_id') as string;
          return this.find('roles_participants', txEcosystem(ctx), { deleted: '0' }).some((row) => {
            const role = JSON.parse(row.get('role')!) as { id: string };
            const member = JSON.parse(row.get('member')!) as { account: string };
            return member.account === account && ids.some((id) => text(id) === role.id);
          });
        },
      },
      {
        name: 'ValidateCondition',
        fn: (_ctx, condition) => {
          if (text(condition).trim() === '' || text(condition).includes('invalid'))
            throw panic(`condition ${text(condition)} is not valid`);
        },
      },
      {
        name: 'RowConditions',
        fn: async (ctx, table, id, onlyConditions) => {
          const row = this.rowById(ctx, table, id);
          if (!row) throw panic(`Item ${text(id)} has not been found`);
          if (!(await this.evalIn(ctx, row.get('conditions') ?? '')))
            throw new VmError('warning', 'Access denied');
          const param = changing[this.resolve(ctx, table).name];
          if (!onlyConditions && param && !(await this.evalIn(ctx, this.param(txEcosystem(ctx), param)))) {
            throw new VmError('warning', 'Access denied');
          }
        },
      },
      { name: 'Eval', fn: (ctx, condition) => this.evalIn(ctx, text(condition)) },
      { name: 'TableConditions', fn: () => undefined },
      {
        name: 'ContractName',
        fn: (_ctx, source) => this.vm.sourceNames(text(source))[0] ?? '',
      },
      {
        name: 'ValidateEditContractNewValue',
        fn: (_ctx, next, old) => {
          if (!this.vm.sameNames(text(old), text(next)))
            throw panic('Contracts or functions names cannot be changed');
        },
      },
      {
        name: 'CreateContract',
        writesDb: true,
        fn: (ctx, name, source, conditions, token, app) => {
          this.checkWrite(ctx, 'contracts', 'insert');
          const row = this.seed('contracts', txEcosystem(ctx), {
            name: text(name),
            value: text(source),
            conditions: text(conditions),
            token_id: text(token),
            app_id: text(app),
            wallet_id: '0',
          });
          return 5000n + BigInt(row.get('id')!);
        },
      },
      {
        name: 'UpdateContract',
        writesDb: true,
        fn: (ctx, id, source, conditions) => {
          this.checkWrite(ctx, 'contracts', 'update');
          const row = this.rowById(ctx, 'contracts', id)!;
          row.set('value', text(source));
          row.set('conditions', text(conditions));
        },
      },
      ...['CreateTable', 'PermTable', 'CreateColumn', 'PermColumn', 'BndWallet', 'UnbndWallet'].map(
        (name): BuiltinDef => ({ name, writesDb: true, fn: () => undefined }),
      ),
      {
        name: 'CreateLanguage',
        writesDb: true,
        fn: (ctx, name, trans) => {
          this.checkWrite(ctx, 'languages', 'insert');
          return BigInt(
            this.seed('languages', txEcosystem(ctx), { name: text(name), res: text(trans) }).get('id')!,
          );
        },
      },
      { name: 'EditLanguage', writesDb: true, fn: () => undefined },
      { name: 'CreateEcosystem', writesDb: true, fn: () => 2n },
      {
        name: 'EditEcosysName',
        writesDb: true,
        fn: (_ctx, id, name) => {
          this.find('ecosystems', 1n, { id: text(id) })[0].set('name', text(name));
        },
      },
      { name: 'AddressToId', fn: (_ctx, address) => addressToId(text(address)) },
      { name: 'IdToAddress', fn: (_ctx, id) => keyIdToAddress(id as bigint) },
      { name: 'PubToID', fn: (_ctx, pub) => pubToId(text(pub)) },
      { name: 'HexToPub', fn: (_ctx, pub) => new Uint8Array(parsePublicKey(text(pub))) },
      {
        name: 'Hash',
        fn: (_ctx, data) =>
          createHash('sha256')
            .update(data instanceof Uint8Array ? data : text(data))
            .digest('hex'),
      },
    ];
  }
}

const PRELUDE = `
func DBFind(table string).Columns(columns string).Where(where map).WhereId(id int).Order(order string).Limit(limit int).Offset(offset int) array {
    return DBSelect(table, columns, id, order, offset, limit, where)
}
`;

const DEVELOPER = 'ContractConditions("DeveloperCondition")';
const MAIN = 'ContractConditions("MainCondition")';

function publicKey(seed: number): string {
  return createHash('sha512').update(`key ${seed}`).digest('hex');
}

interface Account {
  pub: string;
  id: bigint;
  address: string;
}

function account(seed: number): Account {
  const pub = publicKey(seed);
  const id = pubToId(pub);
  return { pub, id, address: keyIdToAddress(id) };
}

const founder = account(1);
const developer = account(2);
const stranger = account(3);
const node = account(4);
const newcomer = account(5);

let vm: Vm;
let host: FakeHost;

function tx(who: Account, ecosystem = 1n): TxContext {
  return {
    vars: {
      key_id: who.id,
      account_id: who.address,
      ecosystem_id: ecosystem,
      block: 7n,
      time: 1_700_000_000n,
      block_time: 1_700_000_000n,
      txhash: new Uint8Array([1, 2, 3]),
    },
  };
}

async function run(name: string, who: Account, params: Record<string, Value>, ecosystem = 1n) {
  return vm.runContract(`@1${name}`, new Map(Object.entries(params)), tx(who, ecosystem));
}

async function fails(
  name: string,
  who: Account,
  params: Record<string, Value>,
  type: string,
  message: string | RegExp,
  ecosystem = 1n,
) {
  const error = await run(name, who, params, ecosystem).then(
    () => null,
    (thrown: unknown) => thrown as VmError,
  );
  expect(error, `${name} should fail`).toBeInstanceOf(VmError);
  expect(error!.type).toBe(type);
  if (typeof message === 'string') expect(error!.text).toBe(message);
  else expect(error!.text).toMatch(message);
}

function seedEcosystem(eco: bigint): void {
  host.seed('ecosystems', 1n, { id: eco, name: `eco ${eco}`, control_mode: 1 });
  const params: [string, string][] = [
    ['founder_account', founder.id.toString()],
    ['new_table', DEVELOPER],
    ['changing_tables', DEVELOPER],
    ['changing_language', DEVELOPER],
    ['changing_page', DEVELOPER],
    ['changing_menu', DEVELOPER],
    ['changing_contracts', DEVELOPER],
    ['changing_parameters', DEVELOPER],
    ['changing_app_params', DEVELOPER],
    ['changing_snippets', DEVELOPER],
    ['max_sum', '1000000'],
    ['min_page_validate_count', '1'],
    ['max_page_validate_count', '6'],
  ];
  for (const [name, value] of params) {
    host.seed('parameters', eco, { name, value, conditions: name === 'founder_account' ? MAIN : DEVELOPER });
  }
  host.seed('roles', eco, { role_name: 'Admin', role_type: 3, deleted: 0 });
  const devRole = host.seed('roles', eco, { role_name: 'Developer', role_type: 3, deleted: 0 });
  host.seed('app_params', eco, {
    app_id: 1,
    name: 'role_developer',
    value: devRole.get('id')!,
    conditions: MAIN,
  });
  for (const who of [founder, developer, stranger]) {
    host.seed('keys', eco, {
      id: who.id,
      pub: who.pub,
      amount: 0,
      deleted: 0,
      blocked: 0,
      account: who.address,
    });
    host.seed('members', eco, { member_name: '', account: who.address, member_info: '{}' });
  }
  host.seed('roles_participants', eco, {
    role: JSON.stringify({ id: devRole.get('id'), type: '3', name: 'Developer', image_id: '0' }),
    member: JSON.stringify({ member_name: '', account: developer.address }),
    deleted: 0,
  });
}

beforeEach(() => {
  vm = new Vm();
  host = new FakeHost(vm);
  vm.builtins.registerAll(host.builtins());
  vm.loadPrelude(PRELUDE);
  SYSTEM_CONTRACTS.forEach((contract, index) => {
    vm.compileSource(contract.source, { ecosystem: 1, meta: { tableId: index + 1 } });
  });
  for (const contract of SYSTEM_CONTRACTS.filter((c) => c.perEcosystem)) {
    vm.compileSource(contract.source, { ecosystem: 2 });
  }
  host.platform.set(
    'honor_nodes',
    JSON.stringify([{ tcp_address: 'n:7078', api_address: 'http://n:7079', public_key: '04' + node.pub }]),
  );
  host.platform.set('max_columns', '50');
  seedEcosystem(1n);
  seedEcosystem(2n);
});

describe('conditions contracts', () => {
  it('MainCondition lets only the founder through', async () => {
    await expect(vm.runConditions('@1MainCondition', { tx: tx(founder) })).resolves.toBeUndefined();
    await expect(vm.runConditions('@1MainCondition', { tx: tx(developer) })).rejects.toMatchObject({
      type: 'warning',
      text: 'Access denied',
    });
  });

  it('DeveloperCondition lets the founder and the developer role through', async () => {
    await expect(vm.runConditions('@1DeveloperCondition', { tx: tx(founder) })).resolves.toBeUndefined();
    await expect(
      vm.runConditions('@2DeveloperCondition', { tx: tx(developer, 2n) }),
    ).resolves.toBeUndefined();
    await expect(vm.runConditions('@1DeveloperCondition', { tx: tx(stranger) })).rejects.toMatchObject({
      type: 'warning',
      text: 'Access denied',
    });
  });

  it('NodeOwnerCondition lets an honor node key through, else MainCondition', async () => {
    await expect(vm.runConditions('@1NodeOwnerCondition', { tx: tx(node) })).resolves.toBeUndefined();
    await expect(vm.runConditions('@1NodeOwnerCondition', { tx: tx(founder) })).resolves.toBeUndefined();
    await expect(vm.runConditions('@1NodeOwnerCondition', { tx: tx(stranger) })).rejects.toMatchObject({
      text: 'Access denied',
    });
  });
});

describe('NewUser', () => {
  it('registers a key in the target ecosystem and in ecosystem 1, idempotently', async () => {
    const result = await run('NewUser', node, { NewPubkey: '04' + newcomer.pub, Ecosystem: 2n });
    expect(result.result).toBe(newcomer.id.toString());
    for (const eco of [1n, 2n]) {
      const key = host.find('keys', eco, { id: newcomer.id.toString() });
      expect(key).toHaveLength(1);
      expect(key[0].get('account')).toBe(newcomer.address);
      expect(key[0].get('pub')).toBe(newcomer.pub);
      expect(host.find('members', eco, { account: newcomer.address })).toHaveLength(1);
    }
    await run('NewUser', node, { NewPubkey: newcomer.pub, Ecosystem: 2n });
    expect(host.find('keys', 2n, { id: newcomer.id.toString() })).toHaveLength(1);
  });

  it('fills the public key of a key row that has none', async () => {
    host.seed('keys', 1n, { id: newcomer.id, pub: '', account: newcomer.address });
    await run('NewUser', node, { NewPubkey: newcomer.pub });
    expect(host.find('keys', 1n, { id: newcomer.id.toString() })[0].get('pub')).toBe(newcomer.pub);
  });

  it('is refused to anyone but a node owner, and checks its input', async () => {
    await fails('NewUser', stranger, { NewPubkey: newcomer.pub }, 'warning', 'Access denied');
    await fails('NewUser', node, { NewPubkey: 'abcd' }, 'error', /64 bytes/);
    await fails('NewUser', node, { NewPubkey: '' }, 'error', 'The public key is empty');
    await fails(
      'NewUser',
      node,
      { NewPubkey: newcomer.pub, Ecosystem: 9n },
      'error',
      'Ecosystem 9 does not exist',
    );
  });
});

describe('TokensTransfer', () => {
  beforeEach(() => {
    host.find('keys', 2n, { id: founder.id.toString() })[0].set('amount', '1000');
  });

  it('moves the amount and writes the history', async () => {
    const result = await run(
      'TokensTransfer',
      founder,
      { Recipient: stranger.address, Amount: '300', Comment: 'rent' },
      2n,
    );
    expect(host.find('keys', 2n, { id: founder.id.toString() })[0].get('amount')).toBe('700');
    expect(host.find('keys', 2n, { id: stranger.id.toString() })[0].get('amount')).toBe('300');
    const history = host.find('history', 2n);
    expect(history).toHaveLength(1);
    expect(Object.fromEntries(history[0])).toMatchObject({
      id: result.result,
      sender_id: founder.id.toString(),
      recipient_id: stranger.id.toString(),
      amount: '300',
      comment: 'rent',
      block_id: '7',
      txhash: '010203',
      created_at: '1700000000',
      sender_balance: '700',
      recipient_balance: '300',
      ecosystem: '2',
    });
  });

  it('refuses bad transfers with clear errors', async () => {
    await fails(
      'TokensTransfer',
      founder,
      { Recipient: stranger.address, Amount: '0' },
      'error',
      /greater than zero/,
      2n,
    );
    await fails(
      'TokensTransfer',
      founder,
      { Recipient: founder.address, Amount: '1' },
      'error',
      /same account/,
      2n,
    );
    await fails(
      'TokensTransfer',
      founder,
      { Recipient: 'nobody', Amount: '1' },
      'error',
      /not a valid account/,
      2n,
    );
    await fails(
      'TokensTransfer',
      founder,
      { Recipient: newcomer.address, Amount: '1' },
      'error',
      /does not exist/,
      2n,
    );
    await fails(
      'TokensTransfer',
      founder,
      { Recipient: stranger.address, Amount: '1001' },
      'error',
      'Insufficient funds: the balance is 1000, the amount is 1001',
      2n,
    );
    expect(host.find('history', 2n)).toHaveLength(0);
  });
});

describe('pages, menus, snippets', () => {
  it('NewPage clamps the validate count and refuses duplicates and strangers', async () => {
    const created = await run('NewPage', developer, {
      ApplicationId: 1n,
      Name: 'home',
      Value: 'Div(){Hi}',
      Menu: 'default_menu',
      Conditions: DEVELOPER,
      ValidateCount: 10n,
    });
    const page = host.find('pages', 1n, { name: 'home' })[0];
    expect(page.get('id')).toBe(created.result);
    expect(page.get('validate_count')).toBe('6');
    expect(page.get('validate_mode')).toBe('0');
    await fails(
      'NewPage',
      developer,
      { ApplicationId: 1n, Name: 'home', Value: '', Menu: '', Conditions: DEVELOPER },
      'warning',
      'Page home already exists',
    );
    await fails(
      'NewPage',
      stranger,
      { ApplicationId: 1n, Name: 'other', Value: '', Menu: '', Conditions: DEVELOPER },
      'warning',
      'Access denied',
    );

    await run('EditPage', founder, { Id: BigInt(created.result), Value: 'Div(){Bye}' });
    expect(page.get('value')).toBe('Div(){Bye}');
    expect(page.get('menu')).toBe('default_menu');
    await fails('EditPage', stranger, { Id: BigInt(created.result), Value: 'x' }, 'warning', 'Access denied');
    await fails('EditPage', founder, { Id: 99n, Value: 'x' }, 'warning', 'Page 99 has not been found');
  });

  it('NewMenu / NewSnippet use the reference texts for duplicates', async () => {
    await run('NewMenu', founder, { Name: 'm', Value: 'MenuItem(x)', Conditions: MAIN });
    await fails(
      'NewMenu',
      founder,
      { Name: 'm', Value: '', Conditions: MAIN },
      'warning',
      'Menu m already exists',
    );
    await run('NewSnippet', founder, { ApplicationId: 1n, Name: 's', Value: 'x', Conditions: MAIN });
    await fails(
      'NewSnippet',
      founder,
      { ApplicationId: 1n, Name: 's', Value: 'x', Conditions: MAIN },
      'warning',
      'Block s already exists',
    );
  });
});

describe('contracts', () => {
  it('NewContract stores under the first name, EditContract keeps the names', async () => {
    const created = await run('NewContract', developer, {
      ApplicationId: 1n,
      Value: 'contract Hello {\n  action {\n    $result = 1\n  }\n}',
      Conditions: DEVELOPER,
    });
    const row = host.find('contracts', 1n, { name: 'Hello' })[0];
    expect(created.result).toBe(String(5000 + Number(row.get('id'))));
    await fails(
      'NewContract',
      developer,
      { ApplicationId: 1n, Value: 'contract Hello {\n}', Conditions: DEVELOPER },
      'warning',
      'Contract Hello already exists',
    );
    await run('EditContract', developer, { Id: BigInt(row.get('id')!), Value: 'contract Hello {\n}' });
    expect(row.get('value')).toBe('contract Hello {\n}');
    await fails(
      'EditContract',
      developer,
      { Id: BigInt(row.get('id')!), Value: 'contract Bye {\n}' },
      'panic',
      /names cannot be changed/,
    );
  });
});

describe('parameters', () => {
  it('EditParameter checks founder_account and numeric values', async () => {
    const founderParam = host.find('parameters', 1n, { name: 'founder_account' })[0];
    const id = BigInt(founderParam.get('id')!);
    await fails(
      'EditParameter',
      founder,
      { Id: id, Value: newcomer.id.toString() },
      'error',
      /does not exist/,
    );
    await run('EditParameter', founder, { Id: id, Value: developer.address });
    expect(founderParam.get('value')).toBe(developer.id.toString());
    await fails('EditParameter', founder, { Id: id, Value: founder.address }, 'warning', 'Access denied');

    const maxSum = BigInt(host.find('parameters', 1n, { name: 'max_sum' })[0].get('id')!);
    await fails('EditParameter', developer, { Id: maxSum, Value: '12a' }, 'error', /non-negative integer/);
    await run('EditParameter', developer, { Id: maxSum, Value: '5' });
    expect(host.param(1n, 'max_sum')).toBe('5');

    const maxCount = BigInt(host.find('parameters', 1n, { name: 'max_page_validate_count' })[0].get('id')!);
    await fails('EditParameter', developer, { Id: maxCount, Value: '0' }, 'error', /at least 1/);
  });

  it('NewParameter refuses duplicates', async () => {
    await run('NewParameter', developer, { Name: 'colour', Value: 'red', Conditions: DEVELOPER });
    await fails(
      'NewParameter',
      developer,
      { Name: 'colour', Value: 'blue', Conditions: DEVELOPER },
      'warning',
      'Parameter colour already exists',
    );
    await fails(
      'NewParameter',
      developer,
      { Name: 'x', Value: 'blue', Conditions: 'invalid' },
      'panic',
      /is not valid/,
    );
  });
});

describe('roles, members, sections', () => {
  it('RolesCreate, RolesAssign and RolesUnassign manage roles_participants', async () => {
    const created = await run('RolesCreate', founder, { RoleName: 'Auditor' }, 2n);
    const role = host.find('roles', 2n, { role_name: 'Auditor' })[0];
    expect(role.get('id')).toBe(created.result);
    expect(role.get('role_type')).toBe('1');
    expect(JSON.parse(role.get('creator')!)).toEqual({ member_name: '', account: founder.address });
    await fails(
      'RolesCreate',
      founder,
      { RoleName: 'Auditor' },
      'warning',
      'Role Auditor already exists',
      2n,
    );
    await fails('RolesCreate', developer, { RoleName: 'X' }, 'warning', 'Access denied', 2n);

    const roleId = BigInt(created.result);
    await run('RolesAssign', founder, { RoleId: roleId, MemberAccount: stranger.address }, 2n);
    const assigned = host.find('roles_participants', 2n, { deleted: '0' }).at(-1)!;
    expect(JSON.parse(assigned.get('role')!)).toEqual({
      id: created.result,
      type: '1',
      name: 'Auditor',
      image_id: '0',
    });
    expect(JSON.parse(assigned.get('member')!)).toEqual({ member_name: '', account: stranger.address });
    expect(assigned.get('date_created')).toBe('1700000000');
    await fails(
      'RolesAssign',
      founder,
      { RoleId: roleId, MemberAccount: stranger.address },
      'warning',
      /already has the role/,
      2n,
    );
    await fails(
      'RolesAssign',
      founder,
      { RoleId: roleId, MemberAccount: newcomer.address },
      'warning',
      /not a member/,
      2n,
    );

    await run('RolesUnassign', founder, { RoleId: roleId, MemberAccount: stranger.address }, 2n);
    expect(assigned.get('deleted')).toBe('1');
    await fails(
      'RolesUnassign',
      founder,
      { RoleId: roleId, MemberAccount: stranger.address },
      'warning',
      /does not have the role/,
      2n,
    );
  });

  it('a developer role member passes DeveloperCondition through RolesAssign', async () => {
    const devRole = host.find('app_params', 2n, { name: 'role_developer' })[0].get('value')!;
    await expect(vm.runConditions('@2DeveloperCondition', { tx: tx(stranger, 2n) })).rejects.toBeInstanceOf(
      VmError,
    );
    await run('RolesAssign', founder, { RoleId: BigInt(devRole), MemberAccount: stranger.address }, 2n);
    await expect(vm.runConditions('@2DeveloperCondition', { tx: tx(stranger, 2n) })).resolves.toBeUndefined();
  });

  it('ProfileEdit changes the caller’s own member row', async () => {
    const upload = await run(
      'UploadBinary',
      stranger,
      { ApplicationId: 1n, Name: 'avatar', Data: new Uint8Array([9]), DataMimeType: 'image/png' },
      2n,
    );
    await run(
      'ProfileEdit',
      stranger,
      { MemberName: 'Bob', ImageId: BigInt(upload.result), Info: '{"city":"Paris"}' },
      2n,
    );
    const member = host.find('members', 2n, { account: stranger.address })[0];
    expect(member.get('member_name')).toBe('Bob');
    expect(member.get('image_id')).toBe(upload.result);
    expect(member.get('member_info')).toBe('{"city":"Paris"}');
    await fails(
      'ProfileEdit',
      founder,
      { MemberName: 'Bob' },
      'warning',
      'Member name Bob is already taken',
      2n,
    );
    await fails(
      'ProfileEdit',
      founder,
      { ImageId: BigInt(upload.result) },
      'error',
      /among your uploads/,
      2n,
    );
    await fails('ProfileEdit', founder, { Info: '[1]' }, 'error', 'Info must be a JSON object', 2n);
  });

  it('NewSection and EditSection keep one home section', async () => {
    host.seed('pages', 2n, { name: 'default_page', conditions: DEVELOPER });
    host.seed('sections', 2n, { title: 'Home', urlname: 'home', page: 'default_page', status: 2 });
    const created = await run(
      'NewSection',
      developer,
      { Title: 'Shop', Urlname: 'shop', Page: 'default_page' },
      2n,
    );
    const section = host.find('sections', 2n, { urlname: 'shop' })[0];
    expect(section.get('id')).toBe(created.result);
    expect(section.get('status')).toBe('1');
    expect(section.get('roles_access')).toBe('[]');
    await fails(
      'NewSection',
      developer,
      { Title: 'x', Urlname: 'shop', Page: 'default_page' },
      'warning',
      'Section shop already exists',
      2n,
    );
    await fails(
      'NewSection',
      developer,
      { Title: 'x', Urlname: 'x', Page: 'nothing' },
      'error',
      'Page nothing has not been found',
      2n,
    );
    await fails(
      'NewSection',
      stranger,
      { Title: 'x', Urlname: 'x', Page: 'default_page' },
      'warning',
      'Access denied',
      2n,
    );

    await run('EditSection', developer, { Id: BigInt(created.result), Status: 2n }, 2n);
    expect(section.get('status')).toBe('2');
    expect(host.find('sections', 2n, { urlname: 'home' })[0].get('status')).toBe('1');
    await run('EditSection', developer, { Id: BigInt(created.result), Status: -1n, Title: 'Store' }, 2n);
    expect(section.get('status')).toBe('0');
    expect(section.get('title')).toBe('Store');
  });
});

describe('binaries, ecosystems, applications, languages', () => {
  it('UploadFile goes through UploadBinary and replaces a file of the same name', async () => {
    const file = new Map<string, Value>([
      ['Name', 'logo.png'],
      ['MimeType', 'image/png'],
      ['Body', new Uint8Array([1, 2])],
    ]);
    const first = await run('UploadFile', founder, { ApplicationId: 1n, Data: file });
    const row = host.find('binaries', 1n, { name: 'logo.png' })[0];
    expect(row.get('id')).toBe(first.result);
    expect(row.get('mime_type')).toBe('image/png');
    expect(row.get('account')).toBe(founder.address);
    expect(row.get('hash')).toBe(
      createHash('sha256')
        .update(new Uint8Array([1, 2]))
        .digest('hex'),
    );
    file.set('Body', new Uint8Array([3]));
    const second = await run('UploadFile', founder, { ApplicationId: 1n, Data: file });
    expect(second.result).toBe(first.result);
    expect(row.get('data')).toBe('03');
    await fails(
      'UploadBinary',
      founder,
      { ApplicationId: 1n, Name: 'x', Data: new Uint8Array([1]), MemberAccount: stranger.address },
      'warning',
      /Access denied/,
    );
  });

  it('NewEcosystem only from ecosystem 1; EditEcosystemName only by the founder, in place', async () => {
    expect((await run('NewEcosystem', stranger, { Name: 'mine' })).result).toBe('2');
    await fails('NewEcosystem', stranger, { Name: 'mine' }, 'error', /from ecosystem 1/, 2n);
    await run('EditEcosystemName', founder, { EcosystemID: 2n, NewName: 'renamed' }, 2n);
    expect(host.find('ecosystems', 1n, { id: '2' })[0].get('name')).toBe('renamed');
    await fails(
      'EditEcosystemName',
      stranger,
      { EcosystemID: 2n, NewName: 'x' },
      'warning',
      'Access denied',
      2n,
    );
    await fails(
      'EditEcosystemName',
      founder,
      { EcosystemID: 1n, NewName: 'x' },
      'error',
      /from inside it/,
      2n,
    );
  });

  it('NewApplication, NewAppParam and NewLang create rows', async () => {
    const app = await run('NewApplication', developer, { Name: 'Shop', Conditions: DEVELOPER });
    expect(host.find('applications', 1n, { name: 'Shop' })[0].get('id')).toBe(app.result);
    await fails(
      'NewApplication',
      developer,
      { Name: 'Shop', Conditions: DEVELOPER },
      'warning',
      'Application Shop already exists',
    );
    await run('EditApplication', founder, { ApplicationId: BigInt(app.result), Conditions: MAIN });
    expect(host.find('applications', 1n, { name: 'Shop' })[0].get('conditions')).toBe(MAIN);

    await run('NewAppParam', developer, {
      ApplicationId: 1n,
      Name: 'colour',
      Value: 'red',
      Conditions: DEVELOPER,
    });
    await fails(
      'NewAppParam',
      developer,
      { ApplicationId: 1n, Name: 'colour', Value: 'red', Conditions: DEVELOPER },
      'warning',
      'Application parameter colour already exists',
    );
    const roleParam = BigInt(host.find('app_params', 1n, { name: 'role_developer' })[0].get('id')!);
    await fails('EditAppParam', founder, { Id: roleParam, Value: '999' }, 'error', 'Role 999 does not exist');

    await run('NewLang', developer, { ApplicationId: 1n, Name: 'hello', Trans: '{"en":"Hello"}' });
    await fails(
      'NewLang',
      developer,
      { ApplicationId: 1n, Name: 'bye', Trans: '"x"' },
      'error',
      /JSON object/,
    );
  });
});

describe('table permissions', () => {
  it('every write the contracts made is allowed by the genesis table permissions', async () => {
    await run('NewUser', node, { NewPubkey: newcomer.pub, Ecosystem: 2n });
    host.find('keys', 1n, { id: founder.id.toString() })[0].set('amount', '5');
    await run('TokensTransfer', founder, { Recipient: stranger.address, Amount: '5' });
    await run('NewMenu', founder, { Name: 'm', Value: 'x', Conditions: MAIN });
    expect(host.writes).toEqual(
      expect.arrayContaining([
        '@1NewUser:insert:keys',
        '@1NewUser:insert:members',
        '@1TokensTransfer:update:keys',
        '@1TokensTransfer:insert:history',
        '@1NewMenu:insert:menu',
      ]),
    );
  });
});
