// Start-up refuses bad surroundings loudly and leaves nothing running.
import { ConfigError } from '@clipit/service-kit';
import { freePorts } from '@clipit/testing';
import { bootstrapMediaWorker } from '../../src/app.js';

describe('bootstrapMediaWorker', () => {
  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapMediaWorker({ MEDIA_WORKER_CONCURRENCY: 'many', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
    await expect(bootstrapMediaWorker({ MEDIA_WORKER_CONCURRENCY: 'many', LOG_LEVEL: 'silent' })).rejects.toThrow(
      /MEDIA_WORKER_CONCURRENCY="many" is invalid/,
    );
  });

  it('refuses to start without ffmpeg, saying which binary is missing, and serves nothing', async () => {
    const [port] = (await freePorts(1)) as [number];
    await expect(
      bootstrapMediaWorker({
        FFMPEG_PATH: '/nonexistent/ffmpeg',
        MEDIA_WORKER_HTTP_PORT: port,
        MEDIA_WORKER_BIND_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      }),
    ).rejects.toThrow(/\/nonexistent\/ffmpeg not found/);
    await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
  });
});
