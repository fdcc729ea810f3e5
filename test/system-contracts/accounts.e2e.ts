import { beforeAll, describe, expect, it } from 'vitest';
import { GUEST_KEY_ID } from '../../src/chain/seed/ecosystem-seed';
import {
  changed,
  expectOk,
  insertedEntry,
  insertedOnly,
  updatedEntry,
  updatedOnly,
  useNode,
  type Account,
  type Row,
} from './helpers';

/**
 * Accounts and roles: the condition contracts, NewUser, TokensTransfer with its history row, ProfileEdit and
 * RolesCreate / RolesAssign / RolesUnassign, on the real database.
 */

const h = useNode();
let developer: Account;
let stranger: Account;
let developerRole: string;

/** `timestamp` column text (UTC, no zone) of a Unix time. */
const timestampText = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19);
const now = () => Math.floor(Date.now() / 1000);

/** Expects a timestamp column to hold a block time between `from` and `to` (Unix seconds). */
function expectTimeBetween(text: string | null, from: number, to: number) {
  expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  expect(
    text! >= timestampText(from) && text! <= timestampText(to),
    `${text} in [${timestampText(from)}, ${timestampText(to)}]`,
  ).toBe(true);
}

beforeAll(async () => {
  developer = await h.registered();
  stranger = await h.registered();
  developerRole = (await h.row('1_app_params', `"ecosystem" = 1 AND "name" = 'role_developer'`))!.value!;
  await h.bench.mustRun(h.founder, 'RolesAssign', {
    RoleId: Number(developerRole),
    MemberAccount: developer.account,
  });
});

describe('condition contracts', () => {
  it('MainCondition lets only the founder through, writing nothing', async () => {
    const run = await h.track(h.founder, 'MainCondition');
    expectOk(run);
    expect(run.changes).toEqual({});
    expect(run.journal).toEqual([]);
    await h.refused(developer, 'MainCondition', {}, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'MainCondition', {}, 'warning', 'Access denied');
  });

  it('DeveloperCondition lets the founder and the developer role through', async () => {
    expectOk(await h.bench.run(h.founder, 'DeveloperCondition'));
    const run = await h.track(developer, 'DeveloperCondition');
    expectOk(run);
    expect(run.changes).toEqual({});
    await h.refused(stranger, 'DeveloperCondition', {}, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'DeveloperCondition', {}, 'warning', 'Access denied');
  });

  it('NodeOwnerCondition lets the honor node’s key through, else MainCondition', async () => {
    const run = await h.track(h.nodeKey, 'NodeOwnerCondition');
    expectOk(run);
    expect(run.changes).toEqual({});
    expectOk(await h.bench.run(h.founder, 'NodeOwnerCondition'));
    await h.refused(developer, 'NodeOwnerCondition', {}, 'warning', 'Access denied');
    await h.refused(stranger, 'NodeOwnerCondition', {}, 'warning', 'Access denied');
  });
});

describe('NewUser', () => {
  it('registers a key: its keys row and a members row, and the journal takes them back', async () => {
    const newcomer = h.newAccount();
    const memberId = await h.nextId('1_members');
    const run = await h.track(h.nodeKey, 'NewUser', { NewPubkey: '04' + newcomer.pub });
    expectOk(run);
    expect(run.outcome.result).toBe(newcomer.keyId.toString());
    const key = newcomer.keyId.toString();
    expect(run.changes).toEqual({
      '1_keys': insertedOnly({
        id: key,
        ecosystem: '1',
        pub: `\\x${newcomer.pub}`,
        amount: '0',
        maxpay: '0',
        multi: '0',
        deleted: '0',
        blocked: '0',
        account: newcomer.account,
      }),
      '1_members': insertedOnly({
        id: memberId,
        ecosystem: '1',
        member_name: newcomer.account,
        image_id: null,
        member_info: '{}',
        account: newcomer.account,
      }),
    });
    expect(run.journal).toEqual([insertedEntry('1_keys', `${key},1`), insertedEntry('1_members', memberId)]);
    await h.undone(run);
  });

  it('changes nothing for a key that is already registered', async () => {
    const run = await h.track(h.nodeKey, 'NewUser', { NewPubkey: stranger.pub });
    expectOk(run);
    expect(run.outcome.result).toBe(stranger.keyId.toString());
    expect(run.changes).toEqual({});
    expect(run.journal).toEqual([]);
  });

  it('fills in the public key of a key row that has none', async () => {
    const newcomer = h.newAccount();
    const key = newcomer.keyId.toString();
    // A key row without a public key, as an account that received tokens before it ever signed has.
    await h.bench.db.query(`INSERT INTO "1_keys" ("id", "ecosystem", "account") VALUES ($1, 1, $2)`, [
      key,
      newcomer.account,
    ]);
    const before = (await h.row('1_keys', `"ecosystem" = 1 AND "id" = $1`, [key]))!;
    expect(before.pub).toBe('\\x');
    const run = await h.track(h.founder, 'NewUser', { NewPubkey: newcomer.pub });
    expectOk(run);
    expect(run.changes['1_keys']).toEqual(updatedOnly(changed(before, { pub: `\\x${newcomer.pub}` })));
    expect(run.changes['1_members'].inserted).toHaveLength(1);
    expect(run.journal[0]).toEqual(updatedEntry('1_keys', `${key},1`, { pub: '' }));
    await h.undone(run);
  });

  it('is refused to anyone but a node owner or the founder, and checks its input', async () => {
    const newcomer = h.newAccount();
    await h.refused(stranger, 'NewUser', { NewPubkey: newcomer.pub }, 'warning', 'Access denied');
    await h.refused(developer, 'NewUser', { NewPubkey: newcomer.pub }, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'NewUser', { NewPubkey: '' }, 'error', 'The public key is empty');
    await h.refused(
      h.nodeKey,
      'NewUser',
      { NewPubkey: 'abcd' },
      'error',
      'The public key must be 64 bytes in hex (optionally with the 04 prefix)',
    );
    await h.refused(
      h.nodeKey,
      'NewUser',
      { NewPubkey: 'zz'.repeat(64) },
      'panic',
      'expected a public key as hex text or bytes',
    );
    await h.refused(
      h.nodeKey,
      'NewUser',
      { NewPubkey: newcomer.pub, Ecosystem: 9 },
      'error',
      'Ecosystem 9 does not exist',
    );
  });
});

describe('TokensTransfer', () => {
  let founderKey: Row;
  let strangerKey: Row;

  beforeAll(async () => {
    // The founder's balance in ecosystem 1, as an emission would have given it.
    await h.bench.db.query(`UPDATE "1_keys" SET "amount" = 1000 WHERE "ecosystem" = 1 AND "id" = $1`, [
      h.founder.keyId.toString(),
    ]);
    founderKey = (await h.row('1_keys', `"ecosystem" = 1 AND "id" = $1`, [h.founder.keyId.toString()]))!;
    strangerKey = (await h.row('1_keys', `"ecosystem" = 1 AND "id" = $1`, [stranger.keyId.toString()]))!;
  });

  it('moves the amount and writes the history row', async () => {
    const id = await h.nextId('1_history');
    const from = now();
    const run = await h.track(h.founder, 'TokensTransfer', {
      Recipient: stranger.account,
      Amount: { money: '300' },
      Comment: 'rent',
    });
    const to = now();
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    const [history] = run.changes['1_history'].inserted;
    const block = await h.bench.db.one<{ block_id: string }>(
      `SELECT "block_id" FROM "rollback_tx" WHERE "tx_hash" = $1 LIMIT 1`,
      [run.outcome.txHash],
    );
    expect(Number(history.created_at)).toBeGreaterThanOrEqual(from);
    expect(Number(history.created_at)).toBeLessThanOrEqual(to);
    expect(run.changes).toEqual({
      // Rows come in key-id order.
      '1_keys': updatedOnly(
        ...[changed(founderKey, { amount: '700' }), changed(strangerKey, { amount: '300' })].sort((a, b) =>
          BigInt(a.before.id!) < BigInt(b.before.id!) ? -1 : 1,
        ),
      ),
      '1_history': insertedOnly({
        id,
        ecosystem: '1',
        sender_id: h.founder.keyId.toString(),
        recipient_id: stranger.keyId.toString(),
        sender_balance: '700',
        recipient_balance: '300',
        amount: '300',
        value_detail: '{}',
        comment: 'rent',
        status: '0',
        block_id: block!.block_id,
        txhash: `\\x${run.outcome.txHash.toString('hex')}`,
        created_at: history.created_at,
        type: '1',
      }),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_keys', `${h.founder.keyId},1`, { amount: '1000' }),
      updatedEntry('1_keys', `${stranger.keyId},1`, { amount: '0' }),
      insertedEntry('1_history', id),
    ]);
    await h.undone(run);
  });

  it('refuses senders without a usable account', async () => {
    const fields = { Recipient: stranger.account, Amount: { money: '1' } };
    await h.refused(
      h.bench.actor(h.newAccount().keyId),
      'TokensTransfer',
      fields,
      'error',
      'The sender has no account in ecosystem 1',
    );
    await h.refused(
      h.bench.actor(GUEST_KEY_ID),
      'TokensTransfer',
      fields,
      'error',
      'The sender account is deleted or blocked',
    );
    await h.refused(
      h.nodeKey,
      'TokensTransfer',
      fields,
      'error',
      'Insufficient funds: the balance is 0, the amount is 1',
    );
  });

  it('refuses bad transfers with clear errors', async () => {
    const send = (recipient: string, amount: string) => ({ Recipient: recipient, Amount: { money: amount } });
    await h.refused(
      h.founder,
      'TokensTransfer',
      send(stranger.account, '0'),
      'error',
      'The amount must be greater than zero',
    );
    await h.refused(
      h.founder,
      'TokensTransfer',
      send(stranger.account, '-5'),
      'error',
      'The amount must be greater than zero',
    );
    await h.refused(
      h.founder,
      'TokensTransfer',
      send(h.founder.account, '1'),
      'error',
      'Sender and recipient are the same account',
    );
    await h.refused(
      h.founder,
      'TokensTransfer',
      send('nobody', '1'),
      'error',
      'Recipient nobody is not a valid account',
    );
    const newcomer = h.newAccount();
    await h.refused(
      h.founder,
      'TokensTransfer',
      send(newcomer.account, '1'),
      'error',
      `Recipient ${newcomer.account} does not exist in ecosystem 1`,
    );
    await h.refused(
      h.founder,
      'TokensTransfer',
      send(stranger.account, '1001'),
      'error',
      'Insufficient funds: the balance is 1000, the amount is 1001',
    );
  });

  it('refuses a deleted recipient', async () => {
    const gone = await h.registered();
    await h.bench.db.query(`UPDATE "1_keys" SET "deleted" = 1 WHERE "ecosystem" = 1 AND "id" = $1`, [
      gone.keyId.toString(),
    ]);
    await h.refused(
      h.founder,
      'TokensTransfer',
      { Recipient: gone.account, Amount: { money: '1' } },
      'error',
      `Recipient ${gone.account} is deleted`,
    );
  });
});

describe('ProfileEdit', () => {
  let avatar: string;
  let member: Row;

  beforeAll(async () => {
    avatar = (
      await h.bench.mustRun(stranger, 'UploadBinary', {
        ApplicationId: 1,
        Name: 'me.png',
        Data: new Uint8Array([1]),
      })
    ).result;
    member = (await h.row('1_members', `"ecosystem" = 1 AND "account" = $1`, [stranger.account]))!;
  });

  it('changes the caller’s own member row', async () => {
    const run = await h.track(stranger, 'ProfileEdit', {
      MemberName: ' Bob ',
      ImageId: Number(avatar),
      Info: '{"city":"Paris"}',
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_members': updatedOnly(
        changed(member, { member_name: 'Bob', image_id: avatar, member_info: '{"city": "Paris"}' }),
      ),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_members', member.id!, {
        member_name: stranger.account,
        image_id: null,
        member_info: '{}',
      }),
    ]);
    await h.undone(run);
    await h.bench.mustRun(stranger, 'ProfileEdit', { MemberName: 'Bob' });
  });

  it('keeps the fields not given', async () => {
    const run = await h.track(stranger, 'ProfileEdit', { Info: '{"age":7}' });
    expectOk(run);
    expect(run.changes['1_members'].updated[0].after).toEqual({
      ...member,
      member_name: 'Bob',
      member_info: '{"age": 7}',
    });
    await h.undone(run);
  });

  it('refuses non-members, taken names, other people’s images and bad info', async () => {
    await h.refused(
      h.nodeKey,
      'ProfileEdit',
      { MemberName: 'Node' },
      'error',
      `${h.nodeKey.account} is not a member of ecosystem 1`,
    );
    await h.refused(
      h.founder,
      'ProfileEdit',
      {},
      'warning',
      'Nothing to change: MemberName, ImageId and Info are empty',
    );
    await h.refused(
      h.founder,
      'ProfileEdit',
      { MemberName: 'Bob' },
      'warning',
      'Member name Bob is already taken',
    );
    await h.refused(h.founder, 'ProfileEdit', { MemberName: '  ' }, 'error', 'Member name is empty');
    await h.refused(
      h.founder,
      'ProfileEdit',
      { ImageId: Number(avatar) },
      'error',
      `Binary ${avatar} has not been found among your uploads`,
    );
    await h.refused(h.founder, 'ProfileEdit', { ImageId: -1 }, 'error', 'ImageId must not be negative');
    await h.refused(h.founder, 'ProfileEdit', { Info: '[1]' }, 'error', 'Info must be a JSON object');
  });
});

describe('roles', () => {
  let role: Row;

  it('RolesCreate inserts the role with its creator and creation time', async () => {
    const id = await h.nextId('1_roles');
    const from = now();
    const run = await h.track(h.founder, 'RolesCreate', { RoleName: 'Auditor' });
    const to = now();
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    const [inserted] = run.changes['1_roles'].inserted;
    expectTimeBetween(inserted.date_created, from, to);
    role = {
      id,
      ecosystem: '1',
      default_page: '',
      role_name: 'Auditor',
      deleted: '0',
      role_type: '1',
      creator: `{"account": "${h.founder.account}", "member_name": "founder"}`,
      date_created: inserted.date_created,
      date_deleted: null,
      company_id: '0',
      roles_access: '[]',
      image_id: '0',
    };
    expect(run.changes).toEqual({ '1_roles': insertedOnly(role) });
    expect(run.journal).toEqual([insertedEntry('1_roles', id)]);
    await h.undone(run);
    await h.bench.mustRun(h.founder, 'RolesCreate', { RoleName: 'Auditor' });
    role = (await h.row('1_roles', `"id" = $1`, [id]))!;
  });

  it('RolesCreate writes the block time as UTC whatever the session time zone of the database', async () => {
    const from = now();
    const row = await h.bench.contracts.transaction(async (sql) => {
      await sql.query(`SET LOCAL TimeZone = 'Asia/Tokyo'`);
      const outcome = await h.bench.runIn(sql, h.founder, 'RolesCreate', { RoleName: 'Night shift' });
      expectOk(outcome);
      return sql.one<{ date_created: string }>(
        `SELECT to_char("date_created", 'YYYY-MM-DD"T"HH24:MI:SS') AS "date_created" FROM "1_roles" WHERE "id" = $1`,
        [outcome.result],
      );
    });
    expectTimeBetween(row!.date_created, from, now());
    await h.bench.db.query(`DELETE FROM "1_roles" WHERE "ecosystem" = 1 AND "role_name" = 'Night shift'`);
  });

  it('RolesCreate takes a type, a default page, the managing roles and an image', async () => {
    const run = await h.track(h.founder, 'RolesCreate', {
      RoleName: 'Voter',
      RoleType: 2,
      DefaultPage: 'default_page',
      RolesAccess: '[1]',
      ImageId: 3,
    });
    expectOk(run);
    expect(run.changes['1_roles'].inserted[0]).toMatchObject({
      role_type: '2',
      default_page: 'default_page',
      roles_access: '[1]',
      image_id: '3',
    });
    await h.undone(run);
  });

  it('RolesCreate refuses anyone but the founder, duplicates and bad input', async () => {
    await h.refused(developer, 'RolesCreate', { RoleName: 'X' }, 'warning', 'Access denied');
    await h.refused(h.nodeKey, 'RolesCreate', { RoleName: 'X' }, 'warning', 'Access denied');
    await h.refused(
      h.founder,
      'RolesCreate',
      { RoleName: 'Auditor' },
      'warning',
      'Role Auditor already exists',
    );
    await h.refused(h.founder, 'RolesCreate', { RoleName: ' ' }, 'warning', 'Role name is empty');
    await h.refused(
      h.founder,
      'RolesCreate',
      { RoleName: 'X', RoleType: 4 },
      'error',
      'RoleType must be 1 (assigned), 2 (elected) or 3 (system)',
    );
    await h.refused(
      h.founder,
      'RolesCreate',
      { RoleName: 'X', DefaultPage: 'nothing' },
      'error',
      'Page nothing has not been found',
    );
    await h.refused(
      h.founder,
      'RolesCreate',
      { RoleName: 'X', RolesAccess: '{}' },
      'error',
      'RolesAccess must be a JSON array of role ids',
    );
  });

  it('RolesAssign gives the role to a member', async () => {
    const id = await h.nextId('1_roles_participants');
    const from = now();
    const run = await h.track(h.founder, 'RolesAssign', {
      RoleId: Number(role.id),
      MemberAccount: stranger.account,
    });
    const to = now();
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    const [inserted] = run.changes['1_roles_participants'].inserted;
    expectTimeBetween(inserted.date_created, from, to);
    expect(run.changes).toEqual({
      '1_roles_participants': insertedOnly({
        id,
        ecosystem: '1',
        role: `{"id": "${role.id}", "name": "Auditor", "type": "1", "image_id": "0"}`,
        member: `{"account": "${stranger.account}", "member_name": "Bob"}`,
        appointed: `{"account": "${h.founder.account}", "member_name": "founder"}`,
        date_created: inserted.date_created,
        date_deleted: null,
        deleted: '0',
      }),
    });
    expect(run.journal).toEqual([insertedEntry('1_roles_participants', id)]);
    await h.undone(run);
    await h.bench.mustRun(h.founder, 'RolesAssign', {
      RoleId: Number(role.id),
      MemberAccount: stranger.account,
    });
  });

  it('RolesAssign refuses anyone but the founder, holders, non-members and unknown roles', async () => {
    const assign = (roleId: number, account: string) => ({ RoleId: roleId, MemberAccount: account });
    await h.refused(
      developer,
      'RolesAssign',
      assign(Number(role.id), developer.account),
      'warning',
      'Access denied',
    );
    await h.refused(
      h.founder,
      'RolesAssign',
      assign(Number(role.id), stranger.account),
      'warning',
      `${stranger.account} already has the role ${role.id}`,
    );
    const newcomer = h.newAccount();
    await h.refused(
      h.founder,
      'RolesAssign',
      assign(Number(role.id), newcomer.account),
      'warning',
      `${newcomer.account} is not a member of ecosystem 1`,
    );
    await h.refused(
      h.founder,
      'RolesAssign',
      assign(Number(role.id), 'nobody'),
      'error',
      'nobody is not a valid account',
    );
    await h.refused(
      h.founder,
      'RolesAssign',
      assign(999, stranger.account),
      'warning',
      'Role 999 has not been found',
    );
  });

  it('RolesUnassign marks the participation deleted', async () => {
    const held = (await h.row(
      '1_roles_participants',
      `"ecosystem" = 1 AND "deleted" = 0 AND "role"->>'id' = $1`,
      [role.id],
    ))!;
    const from = now();
    const run = await h.track(h.founder, 'RolesUnassign', {
      RoleId: Number(role.id),
      MemberAccount: stranger.account,
    });
    const to = now();
    expectOk(run);
    const after = run.changes['1_roles_participants'].updated[0].after;
    expectTimeBetween(after.date_deleted, from, to);
    expect(run.changes).toEqual({
      '1_roles_participants': updatedOnly(changed(held, { deleted: '1', date_deleted: after.date_deleted })),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_roles_participants', held.id!, { deleted: '0', date_deleted: null }),
    ]);
    await h.undone(run);
  });

  it('RolesUnassign refuses anyone but the founder and members without the role', async () => {
    const unassign = (account: string) => ({ RoleId: Number(role.id), MemberAccount: account });
    await h.refused(developer, 'RolesUnassign', unassign(stranger.account), 'warning', 'Access denied');
    await h.refused(
      h.founder,
      'RolesUnassign',
      unassign(developer.account),
      'warning',
      `${developer.account} does not have the role ${role.id}`,
    );
    await h.refused(h.founder, 'RolesUnassign', unassign('nobody'), 'error', 'nobody is not a valid account');
  });

  it('the developer role, given and taken back, opens and closes DeveloperCondition', async () => {
    const member = await h.registered();
    await h.refused(member, 'DeveloperCondition', {}, 'warning', 'Access denied');
    await h.bench.mustRun(h.founder, 'RolesAssign', {
      RoleId: Number(developerRole),
      MemberAccount: member.account,
    });
    expectOk(await h.bench.run(member, 'DeveloperCondition'));
    expectOk(
      await h.bench.run(member, 'NewPage', {
        ApplicationId: 1,
        Name: 'by_member',
        Value: '',
        Menu: '',
        Conditions: 'true',
      }),
    );
    await h.bench.mustRun(h.founder, 'RolesUnassign', {
      RoleId: Number(developerRole),
      MemberAccount: member.account,
    });
    await h.refused(member, 'DeveloperCondition', {}, 'warning', 'Access denied');
    // After RolesUnassign the member may assign again: a deleted participation does not count as held.
    await h.bench.mustRun(h.founder, 'RolesAssign', {
      RoleId: Number(developerRole),
      MemberAccount: member.account,
    });
    expectOk(await h.bench.run(member, 'DeveloperCondition'));
  });
});
