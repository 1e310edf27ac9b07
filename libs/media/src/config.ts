import { z } from 'zod';

/**
 * The media tool variables, as a fragment to spread into a service's config shape. A bare name is
 * looked up on PATH; an absolute path pins one build.
 */
export const mediaToolsConfigShape = {
  /** ffmpeg binary (name on PATH or a path). */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** ffprobe binary (name on PATH or a path). */
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
};

export interface MediaToolsConfig {
  FFMPEG_PATH: string;
  FFPROBE_PATH: string;
}
