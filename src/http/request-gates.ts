import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';
import { BLOCKCHAIN_ONLY_EXTENSION, SESSION_AUTH } from '../api-docs/api-route.decorator';
import type { NextFunction, Request, Response } from 'express';
import type { Caller } from '../common/caller';
import { requireSession, type TokenService } from '../common/token.service';
import { APP_CONFIG, type AppConfig } from '../config';
import { ApiError } from '../common/api-error';
import { isRpcPath, SERVED_IN_EVERY_STATE, type NodeStateService } from '../common/node-state.service';
import type { ApiRequest } from './api-request';
import { sendRestError } from './responses';

/** Resolves the caller from the Authorization header once, for REST and JSON-RPC alike. */
export function callerMiddleware(tokens: TokenService) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    (req as ApiRequest).caller = tokens.resolve(req.headers.authorization);
    next();
  };
}

/** While the node updates its chain or is stopped, REST routes answer 503 (JSON-RPC says so per call). */
export function nodeStateMiddleware(state: NodeStateService, height: () => Promise<bigint>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (state.state === 'running' || SERVED_IN_EVERY_STATE.has(req.path) || isRpcPath(req.path)) {
      next();
      return;
    }
    if (state.state === 'stopped') {
      sendRestError(res, new ApiError('E_STOPPING'));
      return;
    }
    height()
      .catch(() => 0n)
      .then((blockHeight) => sendRestError(res, new ApiError('E_UPDATING', blockHeight)));
  };
}

@Injectable()
export class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    requireSession(context.switchToHttp().getRequest<ApiRequest>().caller);
    return true;
  }
}

/** The route needs a logged-in caller: E_UNAUTHORIZED without a session, E_TOKENEXPIRED when it expired. */
export const Auth = () => applyDecorators(UseGuards(SessionGuard), ApiBearerAuth(SESSION_AUTH));

const BLOCKCHAIN_ROUTE = 'ibax:blockchain-route';

/** A route a CLB node does not have (interface.md's list); it answers 404 there as an unknown path would. */
export const BlockchainRoute = () =>
  applyDecorators(SetMetadata(BLOCKCHAIN_ROUTE, true), ApiExtension(BLOCKCHAIN_ONLY_EXTENSION, true));

@Injectable()
export class ClbRouteGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Installed on a CLB node only (see the app module). */
  canActivate(context: ExecutionContext): boolean {
    const blockchainOnly = this.reflector.getAllAndOverride<boolean>(BLOCKCHAIN_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (blockchainOnly) throw new ApiError('E_NOTFOUND');
    return true;
  }
}

export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller =>
    context.switchToHttp().getRequest<ApiRequest>().caller,
);
