import { IsOptional, IsString } from 'class-validator';
import { Describe, NotEmptyObject, WireNames } from '../common/dto/dto-fields';
import { IsHexBytes, IsInt64 } from '../common/dto/validators';

const ECOSYSTEM = 'ecosystem to log in to (default 1)';
const EXPIRE = 'session lifetime in seconds; 0 or absent: 8 hours';
const PUBLIC_KEY = 'public key (hex); or key_id of a registered key';
const KEY_ID = 'key id or account address of a registered key';
const SIGNATURE = 'signature of "LOGIN" + network id + uid (hex, raw r‖s or DER)';
const ROLE_ID = 'role to act in';

/**
 * `POST login` (a form, with the getuid token as the bearer token) and `login {…}` (one object): the same
 * values, three of them named otherwise in JSON-RPC, as the reference names them. Every value is optional,
 * the signature too (the old description marked it required): the service refuses a missing signature as
 * it refuses a wrong one, once it has found the key, as the reference does. A call naming none of them is
 * empty params; a form naming none reads on.
 */
@NotEmptyObject()
export class LoginInput {
  @IsOptional()
  @IsInt64()
  @WireNames({ rpc: 'ecosystem_id' })
  @Describe(ECOSYSTEM)
  ecosystem?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe(EXPIRE)
  expire?: bigint;

  @IsOptional()
  @IsHexBytes()
  @WireNames({ form: 'pubkey', rpc: 'public_key' })
  @Describe(PUBLIC_KEY)
  publicKey?: Buffer;

  @IsOptional()
  @IsString()
  @WireNames({ form: 'key_id', rpc: 'key_id' })
  @Describe(KEY_ID)
  keyId?: string;

  @IsOptional()
  @IsHexBytes()
  @Describe(SIGNATURE)
  signature?: Buffer;

  @IsOptional()
  @IsInt64()
  @WireNames({ form: 'role_id', rpc: 'role_id' })
  @Describe(ROLE_ID)
  roleId?: bigint;
}
