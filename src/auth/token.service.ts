import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiError } from '../common/api-error';
import { formatGoDuration } from '../common/go-duration';
import { APP_CONFIG, type AppConfig } from '../config';
import { ANONYMOUS, type Caller, type TokenClaims } from './caller';

const CLAIM_NAMES = ['uid', 'ecosystem_id', 'key_id', 'account_id', 'role_id'] as const;
const SIGNED_INTEGER = /^-?\d{1,19}$/;

/**
 * Issues and reads the node's JWTs (HS256 with the configured secret, so they survive restarts and work
 * on every API replica). Only HMAC algorithms are accepted; `alg: none` and foreign secrets are invalid.
 */
@Injectable()
export class TokenService {
  private readonly jwt: JwtService;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.jwt = new JwtService({ secret: config.jwtSecret });
  }

  sign(claims: TokenClaims, lifetimeSeconds: number): { token: string; exp: number } {
    const exp = Math.floor(Date.now() / 1000) + lifetimeSeconds;
    const payload: Record<string, unknown> = {};
    for (const name of CLAIM_NAMES) if (claims[name]) payload[name] = claims[name];
    payload.exp = exp;
    return { token: this.jwt.sign(payload, { algorithm: 'HS256', noTimestamp: true }), exp };
  }

  /** The caller behind an Authorization header value. Never throws: bad tokens give a caller that says why. */
  resolve(authorization: string | undefined): Caller {
    if (!authorization) return ANONYMOUS;
    if (!authorization.startsWith('Bearer ')) return { ...ANONYMOUS, token: 'invalid' };
    const token = authorization.slice('Bearer '.length).trim();
    let claims: TokenClaims;
    try {
      claims = this.jwt.verify<TokenClaims & object>(token, { algorithms: ['HS256', 'HS384', 'HS512'] });
    } catch (error) {
      // @nestjs/jwt passes jsonwebtoken's errors through; an expired token says when it expired.
      const expiredAt = (error as { name?: string; expiredAt?: Date }).expiredAt;
      if ((error as Error).name === 'TokenExpiredError' && expiredAt) {
        const agoMs = BigInt(Math.max(0, Date.now() - expiredAt.getTime()));
        return { ...ANONYMOUS, token: 'expired', expiredAgo: agoMs * 1_000_000n };
      }
      return { ...ANONYMOUS, token: 'invalid' };
    }
    if (!wellFormed(claims)) return { ...ANONYMOUS, token: 'invalid' };
    const keyId = claims.key_id ? BigInt(claims.key_id) : 0n;
    return {
      token: 'valid',
      loggedIn: keyId !== 0n || Boolean(claims.key_id),
      ecosystemId: claims.ecosystem_id ? BigInt(claims.ecosystem_id) : 1n,
      keyId,
      accountId: claims.account_id ?? '',
      roleId: claims.role_id ? BigInt(claims.role_id) : 0n,
      claims,
    };
  }
}

function wellFormed(claims: TokenClaims): boolean {
  for (const name of CLAIM_NAMES) {
    const value = (claims as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== 'string') return false;
  }
  for (const name of ['ecosystem_id', 'key_id', 'role_id'] as const) {
    const value = claims[name];
    if (value !== undefined && value !== '' && !SIGNED_INTEGER.test(value)) return false;
  }
  return typeof claims.exp === 'number';
}

/** The one rule both protocols apply on endpoints that need a session. */
export function requireSession(caller: Caller): Caller {
  if (caller.loggedIn) return caller;
  if (caller.token === 'expired')
    throw new ApiError('E_TOKENEXPIRED', formatGoDuration(caller.expiredAgo ?? 0n));
  throw new ApiError('E_UNAUTHORIZED');
}
