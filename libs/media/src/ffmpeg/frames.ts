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
  return [...QUIET, ...keyframeInput(input), ...keyframeOutput(0)];
}

/** The keyframe sampling's input: the decoder skips every frame but keyframes. */
export function keyframeInput(input: string): string[] {
  return ['-skip_frame', 'nokey', '-i', `file:${input}`];
}

/** The keyframe sampling's output, from input `index`: at most MAX_KEYFRAME_SAMPLES gray frames on stdout. */
export function keyframeOutput(index: number): string[] {
  return [
    '-map',
    `${index}:v:0`,
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

/** The bytes of `frames` samples. */
export const sampleBytes = (frames: number) => frames * SAMPLE_SIZE.width * SAMPLE_SIZE.height;

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
  const keyframes = await runTool(opts.ffmpegPath ?? 'ffmpeg', keyframeSampleArgs(input), {
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    maxStdoutBytes: sampleBytes(MAX_KEYFRAME_SAMPLES),
    operation: 'frames',
  });
  return enoughOrSteady(input, keyframes.stdoutBytes, opts);
}

/**
 * The keyframe samples when there are at least MIN_SAMPLES of them; else frames half a second apart from
 * the clip's start (a camera's or an encoder's long keyframe interval), read by another ffmpeg.
 */
export async function enoughOrSteady(input: string, keyframes: Uint8Array, opts: FfmpegOptions = {}): Promise<Uint8Array> {
  if (keyframes.length >= sampleBytes(MIN_SAMPLES)) return keyframes;
  const steady = await runTool(opts.ffmpegPath ?? 'ffmpeg', steadySampleArgs(input), {
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    maxStdoutBytes: sampleBytes(FALLBACK_SAMPLES),
    operation: 'frames',
  });
  return steady.stdoutBytes;
}
