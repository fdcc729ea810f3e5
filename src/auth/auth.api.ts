import { Controller, Get, HttpCode, Injectable, Post, Req } from '@nestjs/common';
import type { ApiRequest } from '../common/http/api-request';
import { FormValues, parseForm } from '../common/http/form';
import { CurrentCaller } from '../common/http/request-gates';
import { RpcError } from '../rpc/rpc-error';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import { decodeInteger, member } from '../rpc/rpc-params';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { AuthService, type LoginInput } from './auth.service';
import type { Caller } from './caller';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

const NETWORK_AND_CRYPTO = { network_id: s.decimalString(), cryptoer: s.string(), hasher: s.string() };
const GETUID_CHALLENGE = s.object({ uid: s.decimalString(), token: s.string(), ...NETWORK_AND_CRYPTO });
const GETUID_SESSION = s.object({
  expire: s.string('remaining time, Go duration text'),
  ecosystem_id: s.decimalString(),
  key_id: s.decimalString(),
  address: s.string(),
  ...NETWORK_AND_CRYPTO,
});
const LOGIN_ANSWER = s.object(
  {
    token: s.string('the session token (JWT)'),
    ecosystem_id: s.decimalString(),
    key_id: s.decimalString(),
    account: s.string(),
    notify_key: s.string(),
    isnode: s.boolean(),
    isowner: s.boolean(),
    clb: s.boolean(),
    timestamp: s.decimalString(),
    roles: s.array(s.object({ role_id: s.integer(), role_name: s.string() })),
  },
  { optional: ['roles'] },
);
const AUTH_STATUS = s.object(
  { active: s.boolean(), exp: s.integer('expiry, Unix seconds') },
  { optional: ['exp'] },
);

@Controller('api/v2')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @ApiRoute({
    summary: 'A login challenge (uid and a five-second token), or who the session is',
    description:
      'Without a session: the uid to sign as "LOGIN" + network id + uid, and the token to send with the login. With one: its key, address and remaining time.',
    answer: s.oneOf(GETUID_CHALLENGE, GETUID_SESSION),
  })
  @Get('getuid')
  getUid(@CurrentCaller() caller: Caller) {
    return this.auth.getUid(caller);
  }

  @ApiPostRoute({
    summary: 'Log in with a signed uid (registers an unknown key with a NewUser transaction)',
    description:
      'Send the getuid token as the bearer token. The signature covers "LOGIN" + network id + uid.',
    form: {
      ecosystem: { description: 'ecosystem to log in to (default 1)', schema: s.integer() },
      expire: { description: 'session lifetime in seconds', schema: s.integer() },
      pubkey: { description: 'public key (hex); or key_id of a registered key', schema: s.hex() },
      key_id: 'key id or account address of a registered key',
      signature: {
        description: 'signature of the uid text (hex, raw r‖s or DER)',
        schema: s.hex(),
        required: true,
      },
      role_id: { description: 'role to act in', schema: s.integer() },
    },
    answer: LOGIN_ANSWER,
    errors: [
      'E_UNKNOWNUID',
      'E_SIGNATURE',
      'E_EMPTYPUBLIC',
      'E_EMPTYSIGN',
      'E_STATELOGIN',
      'E_ECONOTOPEN',
      'E_NEWUSER',
      'E_CHECKROLE',
      'E_SERVER',
      'E_ECOSYSTEM',
      'E_DELETEDKEY',
    ],
  })
  @Post('login')
  @HttpCode(200)
  login(@Req() req: ApiRequest) {
    const form = parseForm(FormValues.of(req), {
      ecosystem: 'int64',
      expire: 'int64',
      pubkey: 'hex',
      key_id: 'string',
      signature: 'hex',
      role_id: 'int64',
    });
    return this.auth.login(
      {
        ecosystem: form.ecosystem,
        expire: form.expire,
        publicKey: form.pubkey,
        keyId: form.key_id,
        signature: form.signature,
        roleId: form.role_id,
      },
      req.caller,
    );
  }

  @ApiRoute({ summary: 'Whether the bearer token is a valid session, and until when', answer: AUTH_STATUS })
  @Get('auth/status')
  authStatus(@CurrentCaller() caller: Caller) {
    return this.auth.authStatus(caller);
  }
}

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;

/** The login object of JSON-RPC: {ecosystem_id, expire, public_key, key_id, signature, role_id}. */
function loginForm(raw: unknown): LoginInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error('expected an object with public_key or key_id, and signature');
  }
  const object = raw as Record<string, unknown>;
  const integer = (name: string) => {
    const value = member(object, name);
    if (value === undefined || value === null) return undefined;
    try {
      return decodeInteger(value, 'int64', ...INT64);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
  };
  const text = (name: string) => {
    const value = member(object, name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new Error(`${name}: expected a string`);
    return value;
  };
  const hex = (name: string) => {
    const value = text(name);
    if (value === undefined || value === '') return undefined;
    if (value.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(value))
      throw new Error(`${name}: encoding/hex: invalid hex text`);
    return Buffer.from(value, 'hex');
  };
  return {
    ecosystem: integer('ecosystem_id'),
    expire: integer('expire'),
    publicKey: hex('public_key'),
    keyId: text('key_id'),
    signature: hex('signature'),
    roleId: integer('role_id'),
  };
}

@Injectable()
export class AuthRpc {
  constructor(private readonly auth: AuthService) {}

  @RpcMethod('getUid', {
    summary: 'A login challenge (uid and a five-second token), or who the session is',
    result: s.oneOf(GETUID_CHALLENGE, GETUID_SESSION),
  })
  getUid(_args: [], { caller }: RpcCallContext) {
    return this.auth.getUid(caller);
  }

  @RpcMethod('login', {
    summary: 'Log in with a signed uid (registers an unknown key with a NewUser transaction)',
    singleObject: true,
    params: [
      {
        name: 'form',
        type: loginForm,
        optional: true,
        description: 'the login; signature over "LOGIN" + network id + uid, hex',
        schema: s.object(
          {
            ecosystem_id: s.integer(),
            expire: s.integer(),
            public_key: s.hex(),
            key_id: s.string(),
            signature: s.hex(),
            role_id: s.integer(),
          },
          { optional: ['ecosystem_id', 'expire', 'public_key', 'key_id', 'role_id'] },
        ),
      },
    ],
    result: LOGIN_ANSWER,
  })
  login([form]: [LoginInput | undefined], { caller }: RpcCallContext) {
    if (!form) throw RpcError.invalidParams('params can not be empty');
    return this.auth.login(form, caller);
  }

  /** The interface document marks chain.getAuthStatus as needing a session (REST auth/status does not). */
  @RpcMethod('getAuthStatus', {
    auth: true,
    summary: 'Whether the bearer token is a valid session, and until when',
    result: AUTH_STATUS,
  })
  getAuthStatus(_args: [], { caller }: RpcCallContext) {
    return this.auth.authStatus(caller);
  }
}
