import { Inject, Injectable } from '@nestjs/common';
import { PlatformParametersService, type HonorNode } from '../chain/platform-parameters.service';
import { ApiError } from '../common/api-error';
import { NodeStateService } from '../common/node-state.service';
import { APP_CONFIG, type AppConfig } from '../config';
import { readBuildInfo, versionText, type BuildInfo } from './build-info';

export interface NetworkInfo {
  network_id: string;
  centrifugo_url: string;
  test: boolean;
  private: boolean;
  honor_nodes: HonorNode[];
}

@Injectable()
export class SystemService {
  private readonly build: BuildInfo = readBuildInfo();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly nodeState: NodeStateService,
    private readonly parameters: PlatformParametersService,
  ) {}

  version(): string {
    return versionText(this.build, this.nodeState.statusText);
  }

  status(): string {
    return this.nodeState.statusText;
  }

  async network(): Promise<NetworkInfo> {
    return {
      network_id: this.config.networkId.toString(),
      centrifugo_url: this.config.centrifugo.url ?? '',
      test: await this.parameters.isTrue('test'),
      private: await this.parameters.isTrue('private_blockchain'),
      honor_nodes: await this.parameters.honorNodes(),
    };
  }

  /** The notification service address, as configured; a node without one says so. */
  centrifugoUrl(): string {
    const url = this.config.centrifugo.url;
    if (!url) throw ApiError.server('the notification service (CENTRIFUGO_URL) is not configured');
    return url;
  }
}
