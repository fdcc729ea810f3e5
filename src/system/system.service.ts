import { Inject, Injectable } from '@nestjs/common';
import { PlatformParametersService } from '../chain/platform-parameters.service';
import { NodeStateService } from '../common/node-state.service';
import { APP_CONFIG, type AppConfig } from '../config';
import { NotifyService } from '../notify/notify.service';
import type { NetworkInfo } from './system.answers';
import { readBuildInfo, versionText, type BuildInfo } from '../common/build-info';

@Injectable()
export class SystemService {
  private readonly build: BuildInfo = readBuildInfo();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly nodeState: NodeStateService,
    private readonly parameters: PlatformParametersService,
    private readonly notify: NotifyService,
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
      centrifugo_url: this.notify.publicUrl,
      test: await this.parameters.isTrue('test'),
      private: await this.parameters.isPrivateChain(),
      honor_nodes: await this.parameters.honorNodes(),
    };
  }
}
