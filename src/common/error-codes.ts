/**
 * Every API error code: HTTP status and message template of the REST form, code and message template of
 * the JSON-RPC form. Message texts are the reference node's; `%s`/`%d` are filled from the error params.
 * JSON-RPC codes: the reference's custom codes for domain errors (decisions.md), JSON-RPC 2.0 standard
 * codes for protocol errors (see RPC_PROTOCOL_ERRORS).
 */
export interface ErrorCodeSpec {
  status: number;
  message: string;
  rpcCode: number;
  /** The JSON-RPC message where it differs from the REST one. */
  rpcMessage?: string;
}

export const RPC_CODE = {
  default: -32000,
  invalidInput: -32001,
  notFound: -32012,
  unknownUid: -32013,
  unauthorized: -32014,
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export const ERROR_CODES = {
  E_BANNED: { status: 403, message: 'The key %s is banned till %s', rpcCode: RPC_CODE.default },
  E_BUSY: {
    status: 503,
    message: 'The node is busy: %s; send again in %d s',
    rpcCode: RPC_CODE.default,
  },
  E_CHECKROLE: { status: 403, message: 'Access denied', rpcCode: RPC_CODE.default },
  E_CLB: { status: 400, message: "Virtual Dedicated Ecosystem %d doesn't exist", rpcCode: RPC_CODE.default },
  E_CLBCREATED: {
    status: 400,
    message: 'Virtual Dedicated Ecosystem is already created',
    rpcCode: RPC_CODE.default,
  },
  E_CONTRACT: { status: 404, message: 'There is not %s contract', rpcCode: RPC_CODE.default },
  E_DBNIL: { status: 400, message: 'DB is nil', rpcCode: RPC_CODE.default },
  E_DELETEDKEY: { status: 403, message: 'The key is deleted', rpcCode: RPC_CODE.default },
  E_DIFKEY: { status: 400, message: "Sender's key is different from tx key", rpcCode: RPC_CODE.default },
  E_ECONOTOPEN: {
    status: 401,
    message: 'The ecosystem (%d) is not open and cannot be registered address',
    rpcCode: RPC_CODE.default,
  },
  E_ECOSYSTEM: {
    status: 400,
    message: "Ecosystem %d doesn't exist",
    rpcCode: RPC_CODE.default,
    rpcMessage: "ecosystem %d doesn't exist",
  },
  E_EMPTYPUBLIC: { status: 400, message: 'Public key is undefined', rpcCode: RPC_CODE.default },
  E_EMPTYSIGN: { status: 400, message: 'Signature is undefined', rpcCode: RPC_CODE.default },
  E_HASHNOTFOUND: {
    status: 400,
    message: 'Hash %s has not been found',
    rpcCode: RPC_CODE.default,
    rpcMessage: 'hash %s has not been found',
  },
  E_HASHWRONG: {
    status: 400,
    message: 'Hash is incorrect',
    rpcCode: RPC_CODE.default,
    rpcMessage: 'hash is incorrect',
  },
  E_HEAVYPAGE: {
    status: 400,
    message: 'This page is heavy',
    rpcCode: RPC_CODE.default,
    rpcMessage: 'this page is heavy',
  },
  E_INSTALLED: { status: 400, message: 'Chain is already installed', rpcCode: RPC_CODE.default },
  E_INVALIDWALLET: {
    status: 400,
    message: 'Wallet %s is not valid',
    rpcCode: RPC_CODE.invalidParams,
    rpcMessage: 'account address %s is not valid',
  },
  E_KEYNOTFOUND: { status: 404, message: 'Key has not been found', rpcCode: RPC_CODE.default },
  E_LIMITFORSIGN: { status: 400, message: 'Length of forsign is too big (%d)', rpcCode: RPC_CODE.default },
  E_LIMITTXSIZE: {
    status: 400,
    message: 'The size of tx is too big (%d)',
    rpcCode: RPC_CODE.default,
    rpcMessage: 'the size of tx is too big (%d)',
  },
  E_NEWUSER: {
    status: 401,
    message: 'The block packing in progress, please wait',
    rpcCode: RPC_CODE.default,
  },
  E_NOTFOUND: { status: 404, message: 'Page not found', rpcCode: RPC_CODE.notFound, rpcMessage: 'NotFound' },
  E_NOTIMPLEMENTED: { status: 501, message: 'Not implemented', rpcCode: RPC_CODE.default },
  E_PARAMMONEYDIGIT: {
    status: 400,
    message: 'The number of decimal places cannot be exceeded ( %s )',
    rpcCode: RPC_CODE.default,
  },
  E_PARAMNOTFOUND: {
    status: 404,
    message: 'Parameter %s has not been found',
    rpcCode: RPC_CODE.notFound,
  },
  E_PERMISSION: { status: 403, message: 'Permission denied', rpcCode: RPC_CODE.default },
  E_QUERY: { status: 500, message: 'DB query is wrong', rpcCode: RPC_CODE.default },
  E_RECOVERED: {
    status: 500,
    message: 'API recovered',
    rpcCode: RPC_CODE.internalError,
    rpcMessage: 'JSON RPC API recovered',
  },
  E_REQUESTNOTFOUND: { status: 400, message: "Request %s doesn't exist", rpcCode: RPC_CODE.default },
  E_SERVER: { status: 400, message: 'Server error', rpcCode: RPC_CODE.default },
  E_SIGNATURE: { status: 400, message: 'Signature is incorrect', rpcCode: RPC_CODE.default },
  E_STATELOGIN: {
    status: 403,
    message: '%s is not a membership of ecosystem %s',
    rpcCode: RPC_CODE.default,
  },
  E_STOPPING: { status: 503, message: 'Network is stopping', rpcCode: RPC_CODE.default },
  E_TABLENOTFOUND: { status: 404, message: 'Table %s has not been found', rpcCode: RPC_CODE.default },
  E_TOKEN: { status: 400, message: 'Token is not valid', rpcCode: RPC_CODE.unauthorized },
  E_TOKENEXPIRED: { status: 401, message: 'Token is expired by %s', rpcCode: RPC_CODE.unauthorized },
  E_UNAUTHORIZED: { status: 401, message: 'Unauthorized', rpcCode: RPC_CODE.unauthorized },
  E_UNDEFINEVAL: { status: 400, message: 'Value %s is undefined', rpcCode: RPC_CODE.default },
  E_UNKNOWNSIGN: { status: 400, message: 'Unknown signature', rpcCode: RPC_CODE.default },
  E_UNKNOWNUID: { status: 400, message: 'Unknown uid', rpcCode: RPC_CODE.unknownUid },
  E_UPDATING: {
    status: 503,
    message: 'Node is updating blockchain, block height %d',
    rpcCode: RPC_CODE.default,
    rpcMessage: 'Node is updating blockchain',
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
