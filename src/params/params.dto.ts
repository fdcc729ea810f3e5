import { applyDecorators } from '@nestjs/common';
import { IsString } from 'class-validator';
import { OptionalInt64, OptionalText, TextInPath } from '../common/dto/common-fields';
import { Describe, FromPath } from '../common/dto/dto-fields';
import { IsInt64, IsLenientInt64 } from '../common/dto/validators';

const OptionalEcosystem = () => OptionalInt64('ecosystem id; 0 or absent: the session ecosystem');
const OptionalNames = () => OptionalText('comma-separated parameter names; absent: all');
const ParameterNameInPath = () => TextInPath('parameter name');
/** The application id of a path, read leniently: text that is not a number is application 0 (none). */
const AppIdInPath = () => applyDecorators(FromPath(), IsLenientInt64(), Describe('application id'));
const OptionalOffset = () => OptionalInt64('parameters to skip; negative: 0');
const OptionalLimit = () => OptionalInt64('parameters to answer: 0 or absent 25, at most 100');
const AppId = () => applyDecorators(IsInt64(), Describe('application id'));

/** `GET systemparams`. */
export class PlatformParametersForm {
  @OptionalNames()
  names?: string;
}

/** `GET ecosystemparams`: the platform's form, of an ecosystem. */
export class EcosystemParametersForm extends PlatformParametersForm {
  @OptionalEcosystem()
  ecosystem?: bigint;
}

/** `GET ecosystemparam/:name`. */
export class EcosystemParameterForm {
  @ParameterNameInPath()
  name!: string;

  @OptionalEcosystem()
  ecosystem?: bigint;
}

/**
 * `GET appparams/:appid`: the ecosystem's form, of an application. The id stays text: the answer's
 * `app_id` is the path text exactly as sent, as the reference answers it; the handler reads the number
 * leniently.
 */
export class AppParametersForm extends EcosystemParametersForm {
  @FromPath()
  @IsString()
  @Describe('application id')
  appid!: string;
}

/** `GET appparam/:appid/:name`. */
export class AppParameterForm {
  @AppIdInPath()
  appid!: bigint;

  @ParameterNameInPath()
  name!: string;

  @OptionalEcosystem()
  ecosystem?: bigint;
}

/** `GET appcontent/:appid`. */
export class AppContentForm {
  @AppIdInPath()
  appid!: bigint;

  @OptionalEcosystem()
  ecosystem?: bigint;
}

/** `systemParams [names] [offset] [limit]`. */
export class PlatformParametersParams {
  @OptionalNames()
  names?: string;

  @OptionalOffset()
  offset?: bigint;

  @OptionalLimit()
  limit?: bigint;
}

/** `getEcosystemParams [ecosystem] [names] [offset] [limit]`: the platform's call, of an ecosystem. */
export class EcosystemParametersParams extends PlatformParametersParams {
  @OptionalEcosystem()
  ecosystem?: bigint;
}

/** `appParams appId [ecosystem] [names] [offset] [limit]`: the ecosystem's call, of an application. */
export class AppParametersParams extends EcosystemParametersParams {
  @AppId()
  appId!: bigint;
}

/** `getAppContent appId`: an application of the session ecosystem. */
export class AppContentParams {
  @AppId()
  appId!: bigint;
}
