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

@Controller('api/v2')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Get('getuid')
  getUid(@CurrentCaller() caller: Caller) {
    return this.auth.getUid(caller);
  }

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

  @RpcMethod('getUid')
  getUid(_args: [], { caller }: RpcCallContext) {
    return this.auth.getUid(caller);
  }

  @RpcMethod('login', { singleObject: true, params: [{ name: 'form', type: loginForm, optional: true }] })
  login([form]: [LoginInput | undefined], { caller }: RpcCallContext) {
    if (!form) throw RpcError.invalidParams('params can not be empty');
    return this.auth.login(form, caller);
  }

  /** The interface document marks chain.getAuthStatus as needing a session (REST auth/status does not). */
  @RpcMethod('getAuthStatus', { auth: true })
  getAuthStatus(_args: [], { caller }: RpcCallContext) {
    return this.auth.authStatus(caller);
  }
}
