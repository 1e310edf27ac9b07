import { MIN_SAMPLES, SAMPLE_SIZE } from '../watermark.js';
import type { FfmpegOptions } from './transcode.js';
import { runTool } from './run.js';

/** At most this many keyframes are read. */
export const MAX_KEYFRAME_SAMPLES = 16;
/** When a clip has too few keyframes: this many frames, half a second apart, from its start. */
export const FALLBACK_SAMPLES = 12;

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error'];
const GRAY = `scale=${SAMPLE_SIZE.width}:${SAMPLE_SIZE.height}:flags=area,format=gray`;

/**
 * The keyframes only (the decoder skips every other frame, so reading them costs a fraction of playing
 * the clip), upright, scaled to SAMPLE_SIZE in gray, as raw bytes on stdout.
 */
export function keyframeSampleArgs(input: string): string[] {
  return [
    ...QUIET,
    '-skip_frame',
    'nokey',
    '-i',
    `file:${input}`,
    '-map',
    '0:v:0',
    '-fps_mode',
    'passthrough',
    '-frames:v',
    String(MAX_KEYFRAME_SAMPLES),
    '-vf',
    GRAY,
    '-f',
    'rawvideo',
    'pipe:1',
  ];
}

/** Every frame decoded, two a second kept: for a clip whose keyframes are too far apart. */
export function steadySampleArgs(input: string): string[] {
  return [
    ...QUIET,
    '-i',
    `file:${input}`,
    '-map',
    '0:v:0',
    '-frames:v',
    String(FALLBACK_SAMPLES),
    '-vf',
    `fps=2,${GRAY}`,
    '-f',
    'rawvideo',
    'pipe:1',
  ];
}

/**
 * Gray frames sampled over the clip, SAMPLE_SIZE each, back to back: its keyframes, or, when it has fewer
 * than MIN_SAMPLES (a camera's or an encoder's long keyframe interval), frames half a second apart.
 */
export async function sampleFrames(input: string, opts: FfmpegOptions = {}): Promise<Uint8Array> {
  const frameBytes = SAMPLE_SIZE.width * SAMPLE_SIZE.height;
  const run = (args: string[], frames: number) =>
    runTool(opts.ffmpegPath ?? 'ffmpeg', args, {
      timeoutMs: opts.timeoutMs ?? 60_000,
      signal: opts.signal,
      maxStdoutBytes: frames * frameBytes,
    });
  const keyframes = (await run(keyframeSampleArgs(input), MAX_KEYFRAME_SAMPLES)).stdoutBytes;
  if (keyframes.length >= MIN_SAMPLES * frameBytes) return keyframes;
  return (await run(steadySampleArgs(input), FALLBACK_SAMPLES)).stdoutBytes;
}
