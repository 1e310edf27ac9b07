import { InvalidMediaError, MediaToolError } from '../errors.js';
import { runTool, type ToolOutput } from './run.js';

/** What ffprobe measured on a video file. */
export interface ProbeResult {
  /** Seconds, as measured (not rounded). */
  durationSeconds: number;
  /** As displayed: the coded size with width and height swapped when rotation metadata turns it by 90°. */
  width: number;
  height: number;
  /** Reduced `w:h` as displayed, e.g. `9:16`. */
  aspectRatio: string;
  videoCodec: string;
  /** As ffprobe names it, e.g. `High`, `Constrained Baseline`; null when it does not say. */
  videoProfile: string | null;
  /** H.264's level times ten as ffprobe gives it (`42` is level 4.2); null when unknown. */
  videoLevel: number | null;
  /** e.g. `yuv420p`; null when unknown. */
  pixelFormat: string | null;
  audioCodec: string | null;
  /** Bits per second of the whole file (video, audio and container); null when neither ffprobe nor the size says. */
  bitRate: number | null;
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /** Clockwise quarter turns a player applies (0, 90, 180 or 270). */
  rotation: 0 | 90 | 180 | 270;
}

/** The parts of `ffprobe -print_format json -show_format -show_streams` that are read. */
export interface FfprobeOutput {
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    profile?: string;
    level?: number;
    pix_fmt?: string;
    bit_rate?: string;
    width?: number;
    height?: number;
    sample_aspect_ratio?: string;
    display_aspect_ratio?: string;
    duration?: string;
    disposition?: { attached_pic?: number; still_image?: number };
    tags?: Record<string, string | undefined>;
    side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
  }>;
  format?: { format_name?: string; duration?: string; bit_rate?: string; size?: string };
}

export function probeArgs(file: string): string[] {
  // `-i` is not an ffprobe option for the input; the file goes last, after `--`-free options, and is
  // prefixed with `file:` so a name starting with `-` or containing `:` is never read as an option/protocol.
  return ['-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', `file:${file}`];
}

// Demuxers that read still images or image sequences: ffprobe reports a "video" stream for a JPEG.
const IMAGE_FORMAT = /^(image2|.*_pipe|apng|webp|gif)$/;

/**
 * Reads ffprobe's JSON into a {@link ProbeResult}; throws InvalidMediaError when it does not
 * describe a video (no video stream, a still image, no usable size or duration).
 */
export function parseProbe(output: FfprobeOutput): ProbeResult {
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video) throw new InvalidMediaError('no video stream');
  const formatName = output.format?.format_name ?? '';
  if (IMAGE_FORMAT.test(formatName) || video.disposition?.still_image)
    throw new InvalidMediaError(`a still image (${formatName}), not a video`);
  const codedWidth = video.width ?? 0;
  const codedHeight = video.height ?? 0;
  if (!(codedWidth > 0 && codedHeight > 0)) throw new InvalidMediaError('the video stream has no picture size');
  const durationSeconds = firstPositive(output.format?.duration, video.duration);
  if (durationSeconds === undefined) throw new InvalidMediaError('no duration');

  const rotation = rotationOf(video);
  const turned = rotation === 90 || rotation === 270;
  const width = turned ? codedHeight : codedWidth;
  const height = turned ? codedWidth : codedHeight;
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    durationSeconds,
    width,
    height,
    aspectRatio: aspectRatioOf(video.display_aspect_ratio, video.sample_aspect_ratio, codedWidth, codedHeight, turned),
    videoCodec: video.codec_name ?? 'unknown',
    videoProfile: video.profile ?? null,
    videoLevel: typeof video.level === 'number' && video.level > 0 ? video.level : null,
    pixelFormat: video.pix_fmt ?? null,
    audioCodec: audio?.codec_name ?? null,
    bitRate: bitRateOf(output.format, durationSeconds),
    formatName,
    rotation,
  };
}

/** The file's bits per second: ffprobe's figure for the container, else its size over its duration. */
function bitRateOf(format: FfprobeOutput['format'], durationSeconds: number): number | null {
  const given = firstPositive(format?.bit_rate);
  if (given !== undefined) return Math.round(given);
  const size = firstPositive(format?.size);
  return size === undefined ? null : Math.round((size * 8) / durationSeconds);
}

function firstPositive(...values: Array<string | undefined>): number | undefined {
  for (const v of values) {
    const n = Number(v);
    if (v !== undefined && Number.isFinite(n) && n > 0) return n;
  }
  return undefined;
}

/** Rotation from the display matrix (ffmpeg 5+) or the older `rotate` tag, as clockwise degrees. */
export function rotationOf(video: NonNullable<FfprobeOutput['streams']>[number]): 0 | 90 | 180 | 270 {
  const matrix = video.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  const raw = matrix?.rotation ?? Number(video.tags?.['rotate'] ?? 0);
  if (!Number.isFinite(raw)) return 0;
  const quarter = (((Math.round(raw / 90) * 90) % 360) + 360) % 360;
  return quarter as 0 | 90 | 180 | 270;
}

function parseRatio(value: string | undefined): [number, number] | undefined {
  const m = /^(\d+):(\d+)$/.exec(value ?? '');
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a > 0 && b > 0 ? [a, b] : undefined;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export function reduceRatio(w: number, h: number): string {
  const d = gcd(w, h);
  return `${w / d}:${h / d}`;
}

/**
 * The displayed aspect ratio, reduced. ffprobe's display_aspect_ratio is preferred (it accounts for
 * non-square pixels) when it is sane: positive, not extreme, and close to what the picture size and
 * sample aspect ratio give; otherwise the ratio is computed from those. Swapped when rotated by 90°.
 */
export function aspectRatioOf(
  dar: string | undefined,
  sar: string | undefined,
  codedWidth: number,
  codedHeight: number,
  turned: boolean,
): string {
  const [sw, sh] = parseRatio(sar) ?? [1, 1];
  const computedW = codedWidth * sw;
  const computedH = codedHeight * sh;
  const computed = computedW / computedH;
  const given = parseRatio(dar);
  let [w, h] = given && Math.abs(given[0] / given[1] / computed - 1) < 0.02 ? given : [computedW, computedH];
  if (turned) [w, h] = [h, w];
  return reduceRatio(w, h);
}

export interface ProbeOptions {
  ffprobePath?: string;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Measures a video file with ffprobe. Throws InvalidMediaError when the file is not a readable video
 * (ffprobe refuses it or finds no video in it); MediaToolError when ffprobe itself could not run
 * (missing, timed out, aborted).
 */
export async function probe(file: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  let stdout: string;
  try {
    ({ stdout } = await runTool(opts.ffprobePath ?? 'ffprobe', probeArgs(file), {
      timeoutMs: opts.timeoutMs ?? 30_000,
      signal: opts.signal,
      maxStdoutBytes: 4 * 1024 * 1024,
      operation: 'probe',
      inputDurationSeconds: probedDuration,
    }));
  } catch (err) {
    // A clean non-zero exit is ffprobe's verdict on the file; anything else (not found, killed) is not.
    if (
      err instanceof MediaToolError &&
      typeof err.details.exitCode === 'number' &&
      err.details.exitCode !== 0 &&
      !err.details.timedOut &&
      !err.details.aborted
    ) {
      throw new InvalidMediaError(
        `not a readable media file: ${err.details.stderrTail?.split('\n').pop() ?? 'ffprobe refused it'}`,
        err.details.stderrTail,
      );
    }
    throw err;
  }
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(stdout) as FfprobeOutput;
  } catch {
    throw new InvalidMediaError('ffprobe gave no readable description of the file');
  }
  return parseProbe(parsed);
}

/** The duration ffprobe measured, for the probe's span: read only when the run is traced. */
function probedDuration({ stdout }: ToolOutput): number | undefined {
  try {
    const output = JSON.parse(stdout) as FfprobeOutput;
    return firstPositive(output.format?.duration, output.streams?.find((s) => s.codec_type === 'video')?.duration);
  } catch {
    return undefined;
  }
}
