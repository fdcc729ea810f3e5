import { IsOptional, IsString } from 'class-validator';
import { Describe } from '../common/dto/dto-fields';

/** `admin.startJsonRpc [methods]`. */
export class StartJsonRpcParams {
  @IsOptional()
  @IsString()
  @Describe('the namespaces to serve, comma-separated; absent or empty: ibax,chain,net')
  methods?: string;
}
