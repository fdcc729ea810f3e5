import { AppParamEntity } from './app-param.entity';
import { ApplicationEntity } from './application.entity';
import { ParameterEntity } from './parameter.entity';
import { PlatformParameterEntity } from './platform-parameter.entity';

export { AppParamEntity, ApplicationEntity, ParameterEntity, PlatformParameterEntity };

export const PARAMS_ENTITIES = [ParameterEntity, PlatformParameterEntity, AppParamEntity, ApplicationEntity];
