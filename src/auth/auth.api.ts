import type { ErrorCode } from '../common/error-codes';
import { Controller, Get, HttpCode, Injectable, Post } from '@nestjs/common';
import { Form } from '../http/form';
import { CurrentCaller } from '../http/request-gates';
import { RpcMethod } from '../rpc/rpc-method.decorator';
import type { RpcCallContext } from '../rpc/rpc-registry.service';
import { LoginInput } from './auth.dto';
import { AUTH_STATUS, GETUID_CHALLENGE, GETUID_SESSION, LOGIN_ANSWER } from './auth.answers';
import { AuthService } from './auth.service';
import type { Caller } from '../common/caller';
import { ApiPostRoute, ApiRoute } from '../api-docs/api-route.decorator';
import { schema as s } from '../api-docs/schema';

/** Each operation's summary, said once for its REST route and its JSON-RPC method. */
const SUMMARY = {
  getAuthStatus: 'Whether the bearer token is a valid session, and until when',
  getUid: 'A login challenge (uid and a five-second token), or who the session is',
  login: 'Log in with a signed uid (registers an unknown key with a NewUser transaction)',
} as const;

/**
 * What a login can fail with, over REST and JSON-RPC alike. An expired getuid token is E_TOKENEXPIRED (the
 * routes are not @Auth, so it is declared here); a missing signature is E_SIGNATURE and a closed ecosystem
 * E_STATELOGIN (E_EMPTYSIGN and E_ECONOTOPEN are never sent).
 */
const LOGIN_ERRORS: ErrorCode[] = [
  'E_UNKNOWNUID',
  'E_TOKENEXPIRED',
  'E_ECOSYSTEM',
  'E_INVALIDWALLET',
  'E_EMPTYPUBLIC',
  'E_SIGNATURE',
  'E_STATELOGIN',
  'E_KEYNOTFOUND',
  'E_NEWUSER',
  'E_DELETEDKEY',
  'E_CHECKROLE',
  'E_SERVER',
];

@Controller('api/v2')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @ApiRoute({
    summary: SUMMARY.getUid,
    description:
      'Without a session: the uid to sign as "LOGIN" + network id + uid, and the token to send with the login. With one: its key, address and remaining time.',
    answer: s.oneOf(GETUID_CHALLENGE, GETUID_SESSION),
  })
  @Get('getuid')
  getUid(@CurrentCaller() caller: Caller) {
    return this.auth.getUid(caller);
  }

  @ApiPostRoute({
    summary: SUMMARY.login,
    description:
      'Send the getuid token as the bearer token. The signature covers "LOGIN" + network id + uid. ' +
      'Each uid logs in once; `pubkey` and `signature` are hex, `expire` is 1 s to 10 years (0 or absent: 8 ' +
      'hours). A key unknown in the ecosystem is registered only in ecosystem 1 or one with free_membership ' +
      '= 1 (else E_STATELOGIN), and the login waits up to 12 s for that block (E_NEWUSER: get a new uid, ' +
      'retry).',
    answer: LOGIN_ANSWER,
    errors: LOGIN_ERRORS,
  })
  @Post('login')
  @HttpCode(200)
  login(@Form() input: LoginInput, @CurrentCaller() caller: Caller) {
    return this.auth.login(input, caller);
  }

  @ApiRoute({
    summary: SUMMARY.getAuthStatus,
    description:
      'Reads only the bearer token: any valid token, a getuid token included, gives `active: true` and its ' +
      'expiry in Unix seconds; no token, an expired or a forged one gives `{"active":false}`. Never fails. ' +
      'JSON-RPC: `ibax.getAuthStatus` (which needs a session).',
    answer: AUTH_STATUS,
  })
  @Get('auth/status')
  authStatus(@CurrentCaller() caller: Caller) {
    return this.auth.authStatus(caller);
  }
}

@Injectable()
export class AuthRpc {
  constructor(private readonly auth: AuthService) {}

  @RpcMethod('getUid', {
    summary: SUMMARY.getUid,
    description:
      'Without a session: sign "LOGIN" + network id + uid and send the token as the bearer token of `login` ' +
      'within five seconds. With one: its key, address and remaining time (Go duration text).',
    result: s.oneOf(GETUID_CHALLENGE, GETUID_SESSION),
  })
  getUid(_args: [], { caller }: RpcCallContext) {
    return this.auth.getUid(caller);
  }

  @RpcMethod('login', {
    summary: SUMMARY.login,
    description:
      'Send the getUid token as the bearer token; each uid logs in once. Members: `ecosystem_id` (0 or ' +
      'absent: 1), `expire` seconds (0 or absent: 8 hours, at most 10 years), `public_key` and `signature` in ' +
      'hex, `key_id` (address or decimal) of a registered key, `role_id`. An unknown key is registered only ' +
      'in ecosystem 1 or one with free_membership = 1, and the call waits up to 12 s for that block.',
    singleObject: true,
    result: LOGIN_ANSWER,
    errors: LOGIN_ERRORS,
  })
  login(input: LoginInput, { caller }: RpcCallContext) {
    return this.auth.login(input, caller);
  }

  /** The interface document marks chain.getAuthStatus as needing a session (REST auth/status does not). */
  @RpcMethod('getAuthStatus', {
    auth: true,
    summary: SUMMARY.getAuthStatus,
    result: AUTH_STATUS,
  })
  getAuthStatus(_args: [], { caller }: RpcCallContext) {
    return this.auth.authStatus(caller);
  }
}
