import { IsOptional, IsString } from 'class-validator';
import { Describe } from '../common/dto/dto-fields';
import { IsHexBytes, IsInt64 } from '../common/dto/validators';

const ECOSYSTEM = 'ecosystem to log in to (default 1)';
const EXPIRE = 'session lifetime in seconds; 0 or absent: 8 hours';
const PUBLIC_KEY = 'public key (hex); or key_id of a registered key';
const KEY_ID = 'key id or account address of a registered key';
const SIGNATURE = 'signature of "LOGIN" + network id + uid (hex, raw r‖s or DER)';
const ROLE_ID = 'role to act in';

/**
 * `POST login`, with the getuid token as the bearer token. Every value is optional, the signature too (the
 * old description marked it required): the service refuses a missing signature as it refuses a wrong one,
 * once it has found the key, as the reference does.
 */
export class LoginForm {
  @IsOptional()
  @IsInt64()
  @Describe(ECOSYSTEM)
  ecosystem?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe(EXPIRE)
  expire?: bigint;

  @IsOptional()
  @IsHexBytes()
  @Describe(PUBLIC_KEY)
  pubkey?: Buffer;

  @IsOptional()
  @IsString()
  @Describe(KEY_ID)
  key_id?: string;

  @IsOptional()
  @IsHexBytes()
  @Describe(SIGNATURE)
  signature?: Buffer;

  @IsOptional()
  @IsInt64()
  @Describe(ROLE_ID)
  role_id?: bigint;
}

/** `login {…}`: the same values as one object, its members named as the reference's JSON-RPC names them. */
export class LoginParams {
  @IsOptional()
  @IsInt64()
  @Describe(ECOSYSTEM)
  ecosystem_id?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe(EXPIRE)
  expire?: bigint;

  @IsOptional()
  @IsHexBytes()
  @Describe(PUBLIC_KEY)
  public_key?: Buffer;

  @IsOptional()
  @IsString()
  @Describe(KEY_ID)
  key_id?: string;

  @IsOptional()
  @IsHexBytes()
  @Describe(SIGNATURE)
  signature?: Buffer;

  @IsOptional()
  @IsInt64()
  @Describe(ROLE_ID)
  role_id?: bigint;
}
