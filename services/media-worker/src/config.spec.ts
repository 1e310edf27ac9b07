import { itAgreesWithEnvExample } from '@clipit/testing';
import { loadMediaWorkerConfig, mediaWorkerConfigShape, shutdownGraceMs } from './config.js';

describe('media-worker configuration', () => {
  itAgreesWithEnvExample(mediaWorkerConfigShape, loadMediaWorkerConfig);

  it('defaults to one job at a time and ffmpeg/ffprobe on PATH', () => {
    expect(loadMediaWorkerConfig({})).toMatchObject({
      MEDIA_WORKER_CONCURRENCY: 1,
      FFMPEG_PATH: 'ffmpeg',
      FFPROBE_PATH: 'ffprobe',
      MEDIA_WORKER_TMP_DIR: undefined,
    });
  });

  it('names a bad value', () => {
    expect(() => loadMediaWorkerConfig({ MEDIA_WORKER_CONCURRENCY: '0' })).toThrow(/MEDIA_WORKER_CONCURRENCY="0" is invalid/);
  });

  it('gives the process entry the drain time plus ten seconds to close', () => {
    expect(shutdownGraceMs({})).toBe(35_000);
    expect(shutdownGraceMs({ MEDIA_WORKER_DRAIN_SECONDS: '5' })).toBe(15_000);
    expect(shutdownGraceMs({ MEDIA_WORKER_DRAIN_SECONDS: 'soon' })).toBe(35_000);
  });
});
