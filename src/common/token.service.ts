import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ApiError } from './api-error';
import { formatGoDuration } from './go-duration';
import { APP_CONFIG, type AppConfig } from '../config';
import { ANONYMOUS, type Caller, type TokenClaims } from './caller';

const CLAIM_NAMES = ['uid', 'ecosystem_id', 'key_id', 'account_id', 'role_id'] as const;
const SIGNED_INTEGER = /^-?\d{1,19}$/;

/**
 * Issues and reads the node's JWTs (HS256 with the configured secret, so they survive restarts and work
 * on every API replica). Only HMAC algorithms are accepted; `alg: none` and foreign secrets are invalid.
 */
const MAX_VERIFIED = 10_000;

@Injectable()
export class TokenService {
  private readonly jwt: JwtService;
  /**
   * Tokens already verified, with the caller they give: a signed token cannot change, so verifying it
   * again (HMAC, JSON) on every request of a session is work for nothing. Only valid ones are kept.
   */
  private readonly verified = new Map<string, { caller: Caller; expiresMs: number }>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // As a KeyObject, made once: given the text, jsonwebtoken first tries (and fails) to read it as a public
    // key on every verify, which cost more than the rest of a simple authenticated request.
    const secret = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    this.jwt = new JwtService({ secret: secret as unknown as string });
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
    const known = this.verified.get(token);
    // Valid until its exp second, as jsonwebtoken judges it; after that verify() says it expired.
    if (known && Date.now() < known.expiresMs) return known.caller;
    const caller = this.verify(token);
    if (caller.token === 'valid') {
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.set(token, { caller, expiresMs: Number(caller.claims!.exp) * 1000 });
    }
    return caller;
  }

  private verify(token: string): Caller {
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
    return Object.freeze({
      token: 'valid',
      loggedIn: keyId !== 0n || Boolean(claims.key_id),
      ecosystemId: claims.ecosystem_id ? BigInt(claims.ecosystem_id) : 1n,
      keyId,
      accountId: claims.account_id ?? '',
      roleId: claims.role_id ? BigInt(claims.role_id) : 0n,
      claims,
    } as const);
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
