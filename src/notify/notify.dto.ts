import { IsOptional, IsString } from 'class-validator';
import { OptionalInt64 } from '../common/dto/common-fields';
import { Describe, FromPath } from '../common/dto/dto-fields';

/** `GET config/:option`. */
export class ConfigOptionPath {
  @FromPath()
  @IsString()
  @Describe('the setting: centrifugo')
  option!: string;
}

/** `getConfig [option]`. */
export class ConfigOptionParams {
  @IsOptional()
  @IsString()
  @Describe('the setting: centrifugo (the default)')
  option?: string;
}

/** `POST updnotificator`: whose counts to publish again. */
export class UpdNotificatorForm {
  @IsString()
  @Describe('account addresses: a JSON list (["0000-…", …]) or one address')
  id!: string;

  @OptionalInt64('the ecosystem (default 1)')
  ecosystem?: bigint;
}
