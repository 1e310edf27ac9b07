import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { probe, type ProbeResult } from './probe.js';
import { runTool, type FfmpegOperation } from './run.js';

export interface FfmpegOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** The longest side of the poster and the web MP4, unless told otherwise (VIDEO_LIMITS.maxLongSide). */
export const DEFAULT_MAX_LONG_SIDE = 1080;

/** What every ffmpeg run here starts with: quiet, no stdin, outputs overwritten. */
export const COMMON = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

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

/** The poster's input (a fast seek to the nearest keyframe before `atSeconds`, then decoding up to it). */
export function posterInput(input: string, atSeconds: number): string[] {
  return ['-ss', atSeconds.toFixed(3), '-i', `file:${input}`];
}

/** The poster's output, from input `index`: one frame as a JPEG, long side at most `maxLongSide`. */
export function posterOutput(index: number, output: string, maxLongSide = DEFAULT_MAX_LONG_SIDE): string[] {
  return [
    '-map',
    `${index}:v:0`,
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

export function posterArgs(input: string, output: string, atSeconds: number, maxLongSide = DEFAULT_MAX_LONG_SIDE): string[] {
  return [...COMMON, ...posterInput(input, atSeconds), ...posterOutput(0, output, maxLongSide)];
}

/**
 * What the served MP4 takes of an upload, remuxed or transcoded: the first video stream and the first
 * audio stream if there is one (`0:a:0?`), without the source's metadata, subtitles or data streams.
 */
function webMp4Input(input: string): string[] {
  return [...COMMON, '-i', `file:${input}`, ...webMp4Streams(0)];
}

/** {@link webMp4Input}'s choice of streams, from input `index`. */
function webMp4Streams(index: number): string[] {
  return ['-map', `${index}:v:0`, '-map', `${index}:a:0?`, '-map_metadata', '-1', '-sn', '-dn'];
}

/** The remux's output ({@link remuxArgs}), from input `index`. */
export function remuxOutput(index: number, output: string): string[] {
  return [...webMp4Streams(index), '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', `file:${output}`];
}

export interface TranscodeOptions extends FfmpegOptions {
  /** The source's duration, when the caller measured it (for the transcode's span). */
  durationSeconds?: number;
  /** Long side of the output, never upscaled (VIDEO_LIMITS.maxLongSide). */
  maxLongSide?: number;
  /** Bits per second the whole output stays under (DEFAULT_MAX_BIT_RATE): the video's rate is held below it. */
  maxBitRate?: number;
}

/** The bit-rate cap unless configured (MEDIA_MAX_BIT_RATE): no served file reaches it (ADR 0047). */
export const DEFAULT_MAX_BIT_RATE = 8_000_000;

/** The AAC rate of a transcode; the video gets the cap less this and a margin for the container. */
const AUDIO_BIT_RATE = 128_000;
const CONTAINER_MARGIN = 0.97;

/**
 * The video's peak rate for a cap on the whole file: what the cap leaves after the audio, less 3 % for
 * the container. x264 keeps its rate under it over every second-long window (a VBV buffer of one
 * second), so the file's average stays under the cap too.
 */
export function videoRateFor(maxBitRate: number): number {
  const rate = Math.floor((maxBitRate - AUDIO_BIT_RATE) * CONTAINER_MARGIN);
  if (!Number.isFinite(rate) || rate < 100_000) throw new RangeError(`a bit-rate cap of ${maxBitRate} leaves no room for the video`);
  return rate;
}

/**
 * H.264 (High profile, yuv420p, CRF 23, at most 60 fps) and AAC (stereo, 48 kHz, 128 kb/s) in an MP4
 * whose index (moov) comes before the media data, so a browser starts playing before the whole file
 * has arrived. Only the first video and the first audio stream are kept; `0:a:0?` makes audio
 * optional, so a silent source gives an MP4 with no audio track. Metadata, subtitles and data streams
 * are dropped.
 */
export function transcodeArgs(
  input: string,
  output: string,
  maxLongSide = DEFAULT_MAX_LONG_SIDE,
  maxBitRate = DEFAULT_MAX_BIT_RATE,
): string[] {
  const videoRate = videoRateFor(maxBitRate);
  return [
    ...webMp4Input(input),
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
    '-maxrate',
    String(videoRate),
    '-bufsize',
    String(videoRate),
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    String(AUDIO_BIT_RATE),
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
  await runFfmpeg(posterArgs(input, output, posterTime(duration), opts.maxLongSide), output, opts, 120_000, 'thumbnail', duration);
}

/** Transcodes to the web MP4 described at {@link transcodeArgs}; answers what ffprobe measures on the result. */
export async function transcodeForWeb(input: string, output: string, opts: TranscodeOptions = {}): Promise<ProbeResult> {
  await runFfmpeg(
    transcodeArgs(input, output, opts.maxLongSide, opts.maxBitRate),
    output,
    opts,
    600_000,
    'transcode',
    opts.durationSeconds,
  );
  return probe(output, opts);
}

/**
 * Copies the first video and the first audio stream, as they are, into an MP4 whose index comes first
 * (faststart), dropping the source's metadata, subtitles and data streams. The rotation a phone
 * recorded stays (it is the stream's display matrix, which players apply). For a source that plays as
 * it is ({@link webReadiness}).
 */
export function remuxArgs(input: string, output: string): string[] {
  return [...COMMON, '-i', `file:${input}`, ...remuxOutput(0, output)];
}

/** What a remux wrote: its size, and its bit rate over the source's duration (a remux keeps it). */
export interface RemuxResult {
  bytes: number;
  bitRate: number;
}

/**
 * The remux of {@link remuxArgs}. It answers the output's size and bit rate from the file itself, not
 * from another ffprobe: a remux changes neither the streams nor the duration the caller measured.
 */
export async function remuxForWeb(input: string, output: string, opts: FfmpegOptions & { durationSeconds: number }): Promise<RemuxResult> {
  if (!(opts.durationSeconds > 0)) throw new RangeError(`a remux needs the source's duration (got ${opts.durationSeconds})`);
  await runFfmpeg(remuxArgs(input, output), output, opts, 120_000, 'remux', opts.durationSeconds);
  return remuxResult(output, opts.durationSeconds);
}

/** A remux's size and its bit rate over the source's duration, read from the file it wrote. */
export async function remuxResult(file: string, durationSeconds: number): Promise<RemuxResult> {
  const { size } = await stat(file);
  return { bytes: size, bitRate: Math.round((size * 8) / durationSeconds) };
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
  /**
   * `testsrc` (default): ffmpeg's test card, mostly still; `moving`: the card scrolling, which changes all
   * over the picture, as filmed footage does.
   */
  pattern?: 'testsrc' | 'moving';
  /** A static white mark (a watermark) drawn in that corner of every frame. */
  watermark?: 'top-right' | 'top-left';
  /** A keyframe this often (default: x264's, every 250 frames); phones' and editors' exports use 1–2 s. */
  keyframeSeconds?: number;
  /** The video encoding (default: H.264 in yuv420p, x264's ultrafast preset, its own rate). */
  video?: {
    codec?: 'h264' | 'hevc' | 'vp9';
    /** x264's profile names (`baseline`, `main`, `high`, `high444`). */
    profile?: string;
    /** e.g. `4.2`, `5.1`. */
    level?: string;
    pixelFormat?: string;
    /** A target rate in bits per second (x264: also its peak, over one second). */
    bitRate?: number;
    /** x264 at a constant rate, padded with filler data as broadcast cameras write (needs `bitRate`). */
    constantBitRate?: boolean;
    preset?: string;
  };
  /** The audio codec when `withAudio` (default AAC at 64 kb/s). */
  audioCodec?: 'aac' | 'mp3' | 'opus';
  /** The container (default mp4; mp4 and mov are written with the index at the end, as cameras do). */
  container?: 'mp4' | 'mov' | 'webm' | 'matroska';
  /** Writes an mp4 or mov with the index first. */
  faststart?: boolean;
}

const ENCODERS = { h264: 'libx264', hevc: 'libx265', vp9: 'libvpx-vp9' } as const;
const AUDIO_ENCODERS = { aac: ['aac', '-b:a', '64k'], mp3: ['libmp3lame', '-b:a', '96k'], opus: ['libopus', '-b:a', '64k'] } as const;

function videoArgs(spec: SynthesizeClipSpec, fps: number): string[] {
  const video = spec.video ?? {};
  const codec = video.codec ?? 'h264';
  const args = ['-c:v', ENCODERS[codec], '-pix_fmt', video.pixelFormat ?? 'yuv420p'];
  if (codec === 'vp9') args.push('-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1');
  else args.push('-preset', video.preset ?? 'ultrafast');
  if (video.profile) args.push('-profile:v', video.profile);
  if (video.level) args.push('-level:v', video.level);
  if (video.bitRate) {
    args.push('-b:v', String(video.bitRate));
    if (codec === 'h264') args.push('-maxrate', String(video.bitRate), '-bufsize', String(video.bitRate));
    if (codec === 'h264' && video.constantBitRate) args.push('-minrate', String(video.bitRate), '-x264-params', 'nal-hrd=cbr');
  }
  if (spec.keyframeSeconds) args.push('-g', String(Math.max(1, Math.round(spec.keyframeSeconds * fps))));
  if (codec === 'hevc') args.push('-tag:v', 'hvc1', '-x265-params', 'log-level=error');
  return args;
}

const MARKS = {
  'top-right': 'drawbox=x=iw*0.62:y=ih*0.04:w=iw*0.30:h=ih*0.05:color=white:t=fill',
  'top-left': 'drawbox=x=iw*0.08:y=ih*0.04:w=iw*0.30:h=ih*0.05:color=white:t=fill',
} as const;

/** Arguments that encode a test pattern (and a sine tone) of the given size and length. */
export function synthesizeArgs(spec: SynthesizeClipSpec, output = spec.path): string[] {
  const fps = spec.fps ?? 30;
  const d = spec.durationSeconds.toFixed(3);
  const size = `size=${spec.width}x${spec.height}:rate=${fps}`;
  // Scrolled diagonally, a third of the frame a second, wrapping round: every pixel keeps changing.
  const source = `testsrc=${size}:duration=${d}${spec.pattern === 'moving' ? ',scroll=horizontal=0.01:vertical=0.007' : ''}`;
  const container = spec.container ?? 'mp4';
  const indexFirst = spec.faststart && (container === 'mp4' || container === 'mov');
  return [
    ...COMMON,
    '-f',
    'lavfi',
    '-i',
    source,
    ...(spec.withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${d}`] : []),
    ...(spec.watermark ? ['-vf', MARKS[spec.watermark]] : []),
    ...videoArgs(spec, fps),
    ...(spec.withAudio ? ['-c:a', ...AUDIO_ENCODERS[spec.audioCodec ?? 'aac']] : []),
    ...(indexFirst ? ['-movflags', '+faststart'] : []),
    '-t',
    d,
    '-f',
    container,
    `file:${output}`,
  ];
}

/**
 * Writes a synthetic H.264 clip (lavfi testsrc, plus a 440 Hz sine when `withAudio`) for tests and
 * benchmarks. With `rotation`, the clip is remuxed with that rotation metadata, as phones record.
 *
 * With `CLIPIT_SYNTH_CACHE` set to a folder (`npm test` sets one for its run), a clip is encoded once per
 * spec: it is kept there under a digest of its ffmpeg arguments, and every later call for the same spec,
 * in any process of the run, copies it instead of encoding it again (an encode is deterministic, so the
 * copy is the same file). The many test files that ask for the same small clip each paid an encode.
 */
export async function synthesizeClip(spec: SynthesizeClipSpec, opts: FfmpegOptions = {}): Promise<void> {
  const cacheFolder = process.env['CLIPIT_SYNTH_CACHE'];
  if (!cacheFolder) return synthesizeUncached(spec, opts);
  const digest = createHash('sha256')
    .update(JSON.stringify([opts.ffmpegPath ?? 'ffmpeg', spec.rotation ?? 0, synthesizeArgs(spec, 'out')]))
    .digest('hex')
    .slice(0, 32);
  const kept = join(cacheFolder, digest);
  try {
    await copyFile(kept, spec.path);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await synthesizeUncached(spec, opts);
  // Written under a name of its own, then renamed: a process copying it never reads half a file.
  await mkdir(cacheFolder, { recursive: true });
  const writing = `${kept}.${process.pid}.${randomUUID()}`;
  await copyFile(spec.path, writing);
  await rename(writing, kept);
}

async function synthesizeUncached(spec: SynthesizeClipSpec, opts: FfmpegOptions): Promise<void> {
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
      ...(spec.faststart ? ['-movflags', '+faststart'] : []),
      '-f',
      spec.container ?? 'mp4',
      `file:${spec.path}`,
    ];
    await runFfmpeg(args, spec.path, opts, 60_000);
  } finally {
    await rm(plain, { force: true });
  }
}

/** Runs ffmpeg; a failed run leaves no partial output behind. A run without an `operation` (a test clip's) is never traced. */
async function runFfmpeg(
  args: string[],
  output: string,
  opts: FfmpegOptions,
  defaultTimeoutMs: number,
  operation?: FfmpegOperation,
  inputDurationSeconds?: number,
): Promise<void> {
  try {
    await runTool(opts.ffmpegPath ?? 'ffmpeg', args, {
      timeoutMs: opts.timeoutMs ?? defaultTimeoutMs,
      signal: opts.signal,
      ...(operation ? { operation } : {}),
      ...(inputDurationSeconds === undefined ? {} : { inputDurationSeconds }),
    });
  } catch (err) {
    await rm(output, { force: true });
    throw err;
  }
}
