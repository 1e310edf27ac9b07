import { rm } from 'node:fs/promises';
import { probe, type ProbeResult } from './probe.js';
import { runTool } from './run.js';

export interface FfmpegOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** The longest side of the poster and the web MP4, unless told otherwise (VIDEO_LIMITS.maxLongSide). */
export const DEFAULT_MAX_LONG_SIDE = 1080;

const COMMON = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/**
 * A scale filter that brings the long side down to `maxLongSide` (never up), keeps the aspect ratio
 * and rounds both sides down to even numbers (H.264 in yuv420p needs them). ffmpeg rotates by the
 * source's rotation metadata before filters, so `iw`/`ih` are the displayed size. Single quotes
 * protect the commas from the filtergraph parser; no shell is involved.
 */
export function scaleFilter(maxLongSide: number): string {
  if (!Number.isInteger(maxLongSide) || maxLongSide < 2) throw new RangeError(`maxLongSide must be an integer ≥ 2 (got ${maxLongSide})`);
  const factor = `min(1,${maxLongSide}/max(iw,ih))`;
  return `scale=w='max(2,trunc(iw*${factor}/2)*2)':h='max(2,trunc(ih*${factor}/2)*2)'`;
}

/** Where the poster frame is taken: one second in, or half-way through a shorter clip. */
export function posterTime(durationSeconds: number): number {
  return Math.max(0, Math.min(1, durationSeconds / 2));
}

export function posterArgs(input: string, output: string, atSeconds: number, maxLongSide = DEFAULT_MAX_LONG_SIDE): string[] {
  return [
    ...COMMON,
    // Before -i: a fast seek to the nearest keyframe, then decoding up to the exact time.
    '-ss',
    atSeconds.toFixed(3),
    '-i',
    `file:${input}`,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    scaleFilter(maxLongSide),
    '-q:v',
    '3',
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    '-update',
    '1',
    `file:${output}`,
  ];
}

export interface TranscodeOptions extends FfmpegOptions {
  /** Long side of the output, never upscaled (VIDEO_LIMITS.maxLongSide). */
  maxLongSide?: number;
}

/**
 * H.264 (High profile, yuv420p, CRF 23, at most 60 fps) and AAC (stereo, 48 kHz, 128 kb/s) in an MP4
 * whose index (moov) comes before the media data, so a browser starts playing before the whole file
 * has arrived. Only the first video and the first audio stream are kept; `0:a:0?` makes audio
 * optional, so a silent source gives an MP4 with no audio track. Metadata, subtitles and data streams
 * are dropped.
 */
export function transcodeArgs(input: string, output: string, maxLongSide = DEFAULT_MAX_LONG_SIDE): string[] {
  return [
    ...COMMON,
    '-i',
    `file:${input}`,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-map_metadata',
    '-1',
    '-sn',
    '-dn',
    '-vf',
    `${scaleFilter(maxLongSide)},format=yuv420p`,
    '-fpsmax',
    '60',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-movflags',
    '+faststart',
    '-max_muxing_queue_size',
    '1024',
    '-f',
    'mp4',
    `file:${output}`,
  ];
}

/** Writes a JPEG of one frame (at {@link posterTime}), long side at most `maxLongSide`. */
export async function makePoster(
  input: string,
  output: string,
  opts: FfmpegOptions & { maxLongSide?: number; durationSeconds?: number } = {},
): Promise<void> {
  const duration = opts.durationSeconds ?? (await probe(input, opts)).durationSeconds;
  await runFfmpeg(posterArgs(input, output, posterTime(duration), opts.maxLongSide), output, opts, 120_000);
}

/** Transcodes to the web MP4 described at {@link transcodeArgs}; answers what ffprobe measures on the result. */
export async function transcodeForWeb(input: string, output: string, opts: TranscodeOptions = {}): Promise<ProbeResult> {
  await runFfmpeg(transcodeArgs(input, output, opts.maxLongSide), output, opts, 600_000);
  return probe(output, opts);
}

export interface SynthesizeClipSpec {
  path: string;
  durationSeconds: number;
  width: number;
  height: number;
  withAudio: boolean;
  /** Frames per second (default 30); fewer make long test clips quicker. */
  fps?: number;
  /** Rotation metadata to set on the video stream (the picture itself is not turned). */
  rotation?: 0 | 90 | 180 | 270;
}

/** Arguments that encode a test pattern (and a sine tone) of the given size and length. */
export function synthesizeArgs(spec: SynthesizeClipSpec, output = spec.path): string[] {
  const fps = spec.fps ?? 30;
  const d = spec.durationSeconds.toFixed(3);
  return [
    ...COMMON,
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${spec.width}x${spec.height}:rate=${fps}:duration=${d}`,
    ...(spec.withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${d}`] : []),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    ...(spec.withAudio ? ['-c:a', 'aac', '-b:a', '64k'] : []),
    '-t',
    d,
    '-f',
    'mp4',
    `file:${output}`,
  ];
}

/**
 * Writes a synthetic H.264 clip (lavfi testsrc, plus a 440 Hz sine when `withAudio`) for tests and
 * benchmarks. With `rotation`, the clip is remuxed with that rotation metadata, as phones record.
 */
export async function synthesizeClip(spec: SynthesizeClipSpec, opts: FfmpegOptions = {}): Promise<void> {
  if (!spec.rotation) {
    await runFfmpeg(synthesizeArgs(spec), spec.path, opts, 300_000);
    return;
  }
  const plain = `${spec.path}.plain.mp4`;
  try {
    await runFfmpeg(synthesizeArgs(spec, plain), plain, opts, 300_000);
    // ffmpeg 5 honours the `rotate` tag when copying streams and turns it into a display matrix.
    const args = [
      ...COMMON,
      '-i',
      `file:${plain}`,
      '-map',
      '0',
      '-c',
      'copy',
      '-metadata:s:v:0',
      `rotate=${spec.rotation}`,
      '-f',
      'mp4',
      `file:${spec.path}`,
    ];
    await runFfmpeg(args, spec.path, opts, 60_000);
  } finally {
    await rm(plain, { force: true });
  }
}

/** Runs ffmpeg; a failed run leaves no partial output behind. */
async function runFfmpeg(args: string[], output: string, opts: FfmpegOptions, defaultTimeoutMs: number): Promise<void> {
  try {
    await runTool(opts.ffmpegPath ?? 'ffmpeg', args, { timeoutMs: opts.timeoutMs ?? defaultTimeoutMs, signal: opts.signal });
  } catch (err) {
    await rm(output, { force: true });
    throw err;
  }
}
