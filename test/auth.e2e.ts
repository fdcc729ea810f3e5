import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToHex, createHasher, createSigner, parsePrivateKeyHex, utf8 } from '../src/crypto';
import { useTestNode, type TestNode } from './support/node';
import { craftToken, expectRestError, expectShape, sleep, unsignedToken } from './support/wire';

const running = useTestNode();
let node: TestNode;

beforeAll(async () => {
  node = running.node;
});

const LOGIN_SHAPE = {
  token: 'string',
  ecosystem_id: 'string',
  key_id: 'string',
  account: 'string',
  notify_key: 'string',
  isnode: 'boolean',
  isowner: 'boolean',
  clb: 'boolean',
  timestamp: 'string',
  roles: 'array',
} as const;

async function getUid(token: string | null = null) {
  const answer = await node.client.get('/api/v2/getuid', { token });
  expect(answer.status).toBe(200);
  return answer.body as { uid: string; token: string; network_id: string };
}

function sign(privateKeyHex: string, message: string): string {
  const signer = createSigner(node.config.cryptoer, createHasher(node.config.hasher));
  return bytesToHex(signer.sign(parsePrivateKeyHex(privateKeyHex), utf8(message)));
}

function publicKeyOf(privateKeyHex: string): string {
  const signer = createSigner(node.config.cryptoer, createHasher(node.config.hasher));
  return bytesToHex(signer.publicKey(parsePrivateKeyHex(privateKeyHex)));
}

describe('getuid', () => {
  it('hands out a uid, a five-second token and the network crypto', async () => {
    const answer = await node.client.get('/api/v2/getuid', { token: null });
    expectShape(answer.body, {
      uid: 'string',
      token: 'string',
      network_id: 'string',
      cryptoer: 'string',
      hasher: 'string',
    });
    expect(answer.body).toMatchObject({ network_id: '1', cryptoer: 'ECC_Secp256k1', hasher: 'KECCAK256' });
    expect(answer.body.uid).toMatch(/^\d{1,19}$/);
    const again = await getUid();
    expect(again.uid).not.toBe(answer.body.uid);
    expect(await node.client.rpc('ibax.getUid', [], { token: null })).toMatchObject({ network_id: '1' });
  });
});

describe('REST login', () => {
  it('logs the founder in with its public key', async () => {
    const session = await node.client.login(node.founderKey);
    expectShape(session.raw, LOGIN_SHAPE);
    expect(session.raw).toMatchObject({ ecosystem_id: '1', isnode: false, isowner: true, clb: false });
    expect(session.account).toBe(node.client.accountOf(node.founderKey));
    expect(session.raw.roles).toEqual([
      { role_id: 1, role_name: 'Admin' },
      { role_id: 2, role_name: 'Developer' },
    ]);
    expect(Number(session.raw.timestamp)).toBeGreaterThan(1_700_000_000);
  });

  it('logs in with the account address instead of the public key, and as the node', async () => {
    expect((await node.client.login(node.founderKey, { useKeyId: true })).raw.isowner).toBe(true);
    const asNode = await node.client.login(node.nodeKey);
    expect(asNode.raw).toMatchObject({ isnode: true, isowner: false });
    expect(asNode.raw.roles).toBeUndefined();
  });

  it('accepts multipart bodies and a role the account holds', async () => {
    const uid = await getUid();
    const answer = await node.client.postMultipart(
      '/api/v2/login',
      {
        pubkey: '04' + publicKeyOf(node.founderKey),
        signature: sign(node.founderKey, `LOGIN1${uid.uid}`),
        role_id: '2',
      },
      { token: uid.token },
    );
    expect(answer.status).toBe(200);
    const status = await node.client.get('/api/v2/getuid', { token: answer.body.token });
    expectShape(status.body, {
      expire: 'string',
      ecosystem_id: 'string',
      key_id: 'string',
      address: 'string',
      network_id: 'string',
      cryptoer: 'string',
      hasher: 'string',
    });
    expect(status.body.expire).toMatch(/^7h59m5\d(\.\d+)?s$/);
    expect(status.body.address).toBe(node.client.accountOf(node.founderKey));
  });

  it('refuses a role the account does not hold', async () => {
    const uid = await getUid();
    const answer = await node.client.postForm(
      '/api/v2/login',
      {
        pubkey: publicKeyOf(node.founderKey),
        signature: sign(node.founderKey, `LOGIN1${uid.uid}`),
        role_id: '99',
      },
      { token: uid.token },
    );
    expectRestError(answer, 403, 'E_CHECKROLE', 'Access denied');
  });

  it('refuses a signature over the wrong uid, a garbled one and a missing one', async () => {
    for (const signature of [sign(node.founderKey, 'LOGIN1123'), 'ab'.repeat(64), '', 'abcd']) {
      const uid = await getUid();
      const answer = await node.client.postForm(
        '/api/v2/login',
        { pubkey: publicKeyOf(node.founderKey), signature },
        { token: uid.token },
      );
      expectRestError(answer, 400, 'E_SIGNATURE', /^Signature is incorrect/);
    }
  });

  it('refuses public keys of the wrong length and logins without a key', async () => {
    let uid = await getUid();
    const short = publicKeyOf(node.founderKey).slice(2);
    const answer = await node.client.postForm(
      '/api/v2/login',
      { pubkey: short, signature: sign(node.founderKey, `LOGIN1${uid.uid}`) },
      { token: uid.token },
    );
    expectRestError(answer, 400, 'E_EMPTYPUBLIC', 'invalid parameters len(public) = 63');
    uid = await getUid();
    const none = await node.client.postForm('/api/v2/login', { signature: 'ab' }, { token: uid.token });
    expectRestError(none, 400, 'E_EMPTYPUBLIC', 'Public key is undefined');
  });

  it('refuses malformed fields with the schema error', async () => {
    const uid = await getUid();
    const answer = await node.client.postForm(
      '/api/v2/login',
      { pubkey: 'xyz', ecosystem: '1e3', signature: '00' },
      { token: uid.token },
    );
    expectRestError(answer, 400, 'E_SERVER', /^schema: error converting value for "(ecosystem|pubkey)"/);
  });

  it('refuses logins without a getuid token, with forged or unsigned ones, and replays', async () => {
    const fields = (uid: string) => ({
      pubkey: publicKeyOf(node.founderKey),
      signature: sign(node.founderKey, `LOGIN1${uid}`),
    });
    const uid = await getUid();
    expectRestError(
      await node.client.postForm('/api/v2/login', fields(uid.uid), { token: null }),
      400,
      'E_UNKNOWNUID',
      'Unknown uid',
    );
    const forged = craftToken('another secret of enough length', {
      uid: uid.uid,
      ecosystem_id: '1',
      exp: 9_999_999_999,
    });
    expectRestError(
      await node.client.postForm('/api/v2/login', fields(uid.uid), { token: forged }),
      400,
      'E_UNKNOWNUID',
    );
    const unsigned = unsignedToken({ uid: uid.uid, ecosystem_id: '1', exp: 9_999_999_999 });
    expectRestError(
      await node.client.postForm('/api/v2/login', fields(uid.uid), { token: unsigned }),
      400,
      'E_UNKNOWNUID',
    );
    expectRestError(
      await node.client.postForm('/api/v2/login', fields(uid.uid), { token: 'garbage' }),
      400,
      'E_UNKNOWNUID',
    );

    expect((await node.client.postForm('/api/v2/login', fields(uid.uid), { token: uid.token })).status).toBe(
      200,
    );
    expectRestError(
      await node.client.postForm('/api/v2/login', fields(uid.uid), { token: uid.token }),
      400,
      'E_UNKNOWNUID',
    );
  });

  it('refuses a session token in place of a getuid token', async () => {
    const session = await node.client.login(node.founderKey);
    const answer = await node.client.postForm(
      '/api/v2/login',
      { pubkey: publicKeyOf(node.founderKey), signature: sign(node.founderKey, 'LOGIN1') },
      { token: session.token },
    );
    expectRestError(answer, 400, 'E_UNKNOWNUID');
  });

  it('registers an unknown key by a NewUser transaction in a block, and refuses unknown ecosystems', async () => {
    const stranger = 'aa'.repeat(32);
    let uid = await getUid();
    const answer = await node.client.postForm(
      '/api/v2/login',
      { pubkey: publicKeyOf(stranger), signature: sign(stranger, `LOGIN1${uid.uid}`) },
      { token: uid.token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.account).toBe(node.client.accountOf(stranger));
    const keyInfo = await node.client.get(`/api/v2/keyinfo/${answer.body.account}`);
    expect(keyInfo.status).toBe(200);
    expect(keyInfo.body.ecosystems.map((item: { ecosystem: string }) => item.ecosystem)).toContain('1');
    const registration = await node.client.get('/api/v2/blocks?block_id=2&count=1');
    expect(registration.body['2'][0].contract_name).toBe('@1NewUser');
    uid = await getUid();
    const elsewhere = await node.client.postForm(
      '/api/v2/login',
      { pubkey: publicKeyOf(stranger), signature: sign(stranger, `LOGIN1${uid.uid}`), ecosystem: '7' },
      { token: uid.token },
    );
    expectRestError(elsewhere, 400, 'E_ECOSYSTEM', "Ecosystem 7 doesn't exist");
  });

  it('refuses a getuid token once its five seconds are over', async () => {
    const uid = await getUid();
    await sleep(6_100);
    const answer = await node.client.postForm(
      '/api/v2/login',
      { pubkey: publicKeyOf(node.founderKey), signature: sign(node.founderKey, `LOGIN1${uid.uid}`) },
      { token: uid.token },
    );
    expectRestError(answer, 401, 'E_TOKENEXPIRED', /^Token is expired by \d/);
  }, 15_000);
});

describe('auth status', () => {
  it('is active with a session and inactive without', async () => {
    expect((await node.client.get('/api/v2/auth/status', { token: null })).body).toEqual({ active: false });
    const session = await node.client.login(node.founderKey);
    const status = await node.client.get('/api/v2/auth/status', { token: session.token });
    expectShape(status.body, { active: 'boolean', exp: 'number' });
    const rpc = await node.client.rpc('ibax.getAuthStatus', [], { token: session.token });
    expect(rpc).toEqual(status.body);
  });

  it('needs a session over JSON-RPC: none, forged and expired tokens are refused', async () => {
    const call = (token: string | null) =>
      node.client.rpcRaw({ jsonrpc: '2.0', id: 1, method: 'ibax.getAuthStatus' }, { token });
    expect((await call(null)).body.error).toEqual({ code: -32014, message: 'Unauthorized' });
    expect((await call(unsignedToken({ key_id: '1', exp: 9_999_999_999 }))).body.error.code).toBe(-32014);
    const expired = craftToken(node.config.jwtSecret, { key_id: '5', ecosystem_id: '1', exp: 1_000 });
    const answer = await call(expired);
    expect(answer.body.error.code).toBe(-32014);
    expect(answer.body.error.message).toMatch(/^Token is expired by \d+h/);
  });
});

describe('JSON-RPC login', () => {
  it('logs in over ibax. and chain. with the same result shape', async () => {
    for (const namespace of ['ibax', 'chain']) {
      const session = await node.client.loginRpc(node.founderKey, { namespace });
      expectShape(session.raw, LOGIN_SHAPE);
      expect(session.raw.isowner).toBe(true);
    }
  });

  it('takes the login object bare or in an array, and reports bad input', async () => {
    const uid = await node.client.rpc('ibax.getUid', [], { token: null });
    const form = {
      public_key: publicKeyOf(node.founderKey),
      signature: sign(node.founderKey, `LOGIN1${uid.uid}`),
    };
    const bare = await node.client.rpcRaw(
      { jsonrpc: '2.0', id: 'a', method: 'ibax.login', params: form },
      { token: uid.token },
    );
    expect(bare.body.result.isowner).toBe(true);

    const fresh = await node.client.rpc('ibax.getUid', [], { token: null });
    const wrong = await node.client.rpcRaw(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'ibax.login',
        params: [{ ...form, signature: sign(node.founderKey, 'x') }],
      },
      { token: fresh.token },
    );
    expect(wrong.body.error.code).toBe(-32000);
    expect(wrong.body.error.message).toMatch(/^Signature is incorrect/);

    const none = await node.client.rpcRaw(
      { jsonrpc: '2.0', id: 3, method: 'ibax.login', params: [form] },
      { token: null },
    );
    expect(none.body.error).toEqual({ code: -32013, message: 'Unknown uid' });

    const hex = await node.client.rpcRaw(
      { jsonrpc: '2.0', id: 4, method: 'ibax.login', params: [{ public_key: 'zz', signature: '00' }] },
      { token: fresh.token },
    );
    expect(hex.body.error.code).toBe(-32602);
    expect(hex.body.error.message).toMatch(/^invalid argument 1: public_key: encoding\/hex/);

    const empty = await node.client.rpcRaw(
      { jsonrpc: '2.0', id: 5, method: 'ibax.login' },
      { token: fresh.token },
    );
    expect(empty.body.error).toEqual({ code: -32602, message: 'params can not be empty' });
    for (const params of [{}, [{}], [null], { unknown: 1 }]) {
      const nothing = await node.client.rpcRaw(
        { jsonrpc: '2.0', id: 6, method: 'ibax.login', params },
        { token: fresh.token },
      );
      expect(nothing.body.error, JSON.stringify(params)).toEqual({
        code: -32602,
        message: 'params can not be empty',
      });
    }

    const wrongTypes: [Record<string, unknown>, string][] = [
      [{ ecosystem_id: '1' }, 'ecosystem_id: json: cannot unmarshal string into Go value of type int64'],
      [{ key_id: 5555 }, 'key_id: json: cannot unmarshal number 5555 into Go value of type string'],
      [{ Role_ID: 1.5 }, 'role_id: json: cannot unmarshal number 1.5 into Go value of type int64'],
    ];
    for (const [params, message] of wrongTypes) {
      const wrongType = await node.client.rpcRaw(
        { jsonrpc: '2.0', id: 7, method: 'ibax.login', params },
        { token: fresh.token },
      );
      expect(wrongType.body.error).toEqual({ code: -32602, message: `invalid argument 1: ${message}` });
    }
  });
});
