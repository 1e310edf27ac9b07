import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { createSubmissionsClient, SUBMISSIONS_CLIENT, type SubmissionsClient } from './submissions.client.js';
import { SubmissionsController } from './submissions.controller.js';
import { VideoUploadService } from './video-upload.service.js';

@Injectable()
class SubmissionsClientShutdown implements OnApplicationShutdown {
  constructor(@Inject(SUBMISSIONS_CLIENT) private readonly client: SubmissionsClient) {}

  onApplicationShutdown(): void {
    this.client.close();
  }
}

/** /api/submissions*: the clip submission flow, answered by the submissions service. */
@Module({
  controllers: [SubmissionsController],
  providers: [
    { provide: SUBMISSIONS_CLIENT, useFactory: (config: GatewayConfig) => createSubmissionsClient(config.SUBMISSIONS_GRPC_URL), inject: [GATEWAY_CONFIG] },
    SubmissionsClientShutdown,
    VideoUploadService,
  ],
})
export class SubmissionsModule {}
