import { RPC_CODE } from '../common/error-codes';

/** What a method that failed unexpectedly answers (-32603); the failure itself goes to the log. */
export const HANDLER_CRASHED = 'method handler crashed';

/** A JSON-RPC error raised by the gateway itself or by a method that needs a specific code. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  static invalidParams(message: string): RpcError {
    return new RpcError(RPC_CODE.invalidParams, message);
  }

  static invalidRequest(message: string): RpcError {
    return new RpcError(RPC_CODE.invalidRequest, message);
  }

  static methodNotFound(method: string): RpcError {
    return new RpcError(RPC_CODE.methodNotFound, `The method ${method} does not exist/is not available`);
  }

  static parseError(message: string): RpcError {
    return new RpcError(RPC_CODE.parseError, message);
  }
}
