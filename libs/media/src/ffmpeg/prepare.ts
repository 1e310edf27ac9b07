// What the media worker makes of an upload besides a transcode, in one ffmpeg: the poster, the keyframes the
// watermark estimate reads and, for an upload that plays as it is, the faststart remux. Apart, they were three
// or four processes per clip, each paying ffmpeg's start-up (about 0.07 CPU-s, most of a small clip's work).
// The outputs are the same files and bytes as the separate steps' (posterArgs, keyframeSampleArgs, remuxArgs).
import { rm } from 'node:fs/promises';
import { keyframeInput, keyframeOutput, MAX_KEYFRAME_SAMPLES, sampleBytes } from './frames.js';
import { runTool } from './run.js';
import {
  COMMON,
  DEFAULT_MAX_LONG_SIDE,
  posterInput,
  posterOutput,
  posterTime,
  remuxOutput,
  remuxResult,
  type FfmpegOptions,
  type RemuxResult,
} from './transcode.js';

export interface PrepareOptions extends FfmpegOptions {
  /** The source's duration, as ffprobe measured it: where the poster is taken, and the remux's bit rate. */
  durationSeconds: number;
  /** Where the JPEG poster goes. */
  posterFile: string;
  /** Where the faststart remux goes, for a source that plays as it is; none for one that is transcoded. */
  remuxFile?: string | undefined;
  /** The poster's longest side (default DEFAULT_MAX_LONG_SIDE). */
  maxLongSide?: number;
}

export interface Prepared {
  /** The gray keyframes (at most MAX_KEYFRAME_SAMPLES) for the watermark estimate; too few of them call for frames read apart. */
  keyframes: Uint8Array;
  /** What the remux wrote, when one was asked for. */
  remux?: RemuxResult;
}

/** The one ffmpeg's arguments: input 0 seeks to the poster, input 1 reads keyframes only, input 2 is copied. */
export function prepareArgs(
  input: string,
  opts: Pick<PrepareOptions, 'durationSeconds' | 'posterFile' | 'remuxFile' | 'maxLongSide'>,
): string[] {
  return [
    ...COMMON,
    ...posterInput(input, posterTime(opts.durationSeconds)),
    ...keyframeInput(input),
    ...(opts.remuxFile ? ['-i', `file:${input}`] : []),
    ...posterOutput(0, opts.posterFile, opts.maxLongSide ?? DEFAULT_MAX_LONG_SIDE),
    ...keyframeOutput(1),
    ...(opts.remuxFile ? remuxOutput(2, opts.remuxFile) : []),
  ];
}

/** Runs {@link prepareArgs}; on failure nothing it wrote is left behind. */
export async function prepareForWeb(input: string, opts: PrepareOptions): Promise<Prepared> {
  if (!(opts.durationSeconds > 0)) throw new RangeError(`preparing a clip needs its duration (got ${opts.durationSeconds})`);
  let keyframes: Uint8Array;
  try {
    keyframes = (
      await runTool(opts.ffmpegPath ?? 'ffmpeg', prepareArgs(input, opts), {
        timeoutMs: opts.timeoutMs ?? 120_000,
        signal: opts.signal,
        maxStdoutBytes: sampleBytes(MAX_KEYFRAME_SAMPLES),
        operation: 'prepare',
        inputDurationSeconds: opts.durationSeconds,
      })
    ).stdoutBytes;
  } catch (err) {
    await Promise.all([rm(opts.posterFile, { force: true }), opts.remuxFile ? rm(opts.remuxFile, { force: true }) : undefined]);
    throw err;
  }
  return opts.remuxFile ? { keyframes, remux: await remuxResult(opts.remuxFile, opts.durationSeconds) } : { keyframes };
}
