// One ffmpeg reads the clip once and writes both halves of its fingerprint: gray frames sampled every
// SAMPLE_SECONDS on stdout, and Chromaprint's raw print into a temporary file. Decoding the video is nearly
// all the cost (a 40 s 1080x1920 clip is 1200 frames to decode for 60 kept), so two processes would pay it
// twice for the audio's sake.
import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidMediaError, MediaToolError } from '../errors.js';
import { runTool } from '../ffmpeg/run.js';
import {
  encodeAudio,
  FINGERPRINT_VERSION,
  FRAME_SIZE,
  hashFrames,
  isPrintable,
  MAX_SAMPLED_FRAMES,
  type ClipFingerprint,
} from '@clipit/fingerprint';

/**
 * A frame every 2/3 s (`fps=3/2`), so MAX_SAMPLED_FRAMES (60) cover a whole 40 s clip. A trimmed or sped-up
 * copy's samples land within a third of a second of the original's: at one a second, half a second of motion
 * put a sped-up copy's frames as far from its original's (10 bits) as some unrelated clips' (README).
 */
export const SAMPLE_SECONDS = 2 / 3;
/** SAMPLE_SECONDS as ffmpeg's `fps` filter takes it, exactly. */
const SAMPLE_RATE = '3/2';
/** Sound past this point is not printed (the same minute). */
export const MAX_AUDIO_SECONDS = 60;

export interface FingerprintOptions {
  ffmpegPath?: string;
  /** Whether the clip has sound, when known: false prints the pictures alone in one run. */
  hasAudio?: boolean | undefined;
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

const QUIET = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/**
 * Decoder threads: the two cores of a worker machine. The fingerprint runs after the clip already plays, beside
 * the next upload's remux or transcode; on a bigger machine ffmpeg's default (a thread per core) would take
 * every core for work nobody waits on.
 */
export const DECODER_THREADS = 2;

/**
 * The one ffmpeg's arguments. Input: the decoder skips non-reference frames (`-skip_frame noref`: most
 * B-frames), which halves the decode of a phone's H.264 with B-frames; nothing is predicted from them, so the
 * frames kept are decoded exactly, and `fps` keeps the nearest decoded frame, a frame or two off the tick. (The
 * loop filter is not skipped: it is part of the prediction, and frames decoded without it drift further from
 * the picture with every frame until the next keyframe, 20 bits of hash within a few seconds.) Output 1: `fps`
 * keeps a frame every SAMPLE_SECONDS (the nearest to each tick), and only those are scaled (area averaging,
 * which is what a small picture should be) to a FRAME_SIZE gray square, by one filter thread (it has 60
 * frames to scale); the 9:16 shape is squeezed, the same way for every copy. Output 2, with `audioFile`:
 * the first audio stream, mono, up to MAX_AUDIO_SECONDS, printed by the `chromaprint` muxer with
 * Chromaprint's default algorithm named (`-algorithm 1`, TEST2: what AcoustID uses), so a change of default
 * cannot silently make new prints incomparable with stored ones.
 */
export function fingerprintArgs(input: string, audioFile?: string): string[] {
  return [
    ...QUIET,
    '-filter_threads',
    '1',
    '-threads',
    String(DECODER_THREADS),
    '-skip_frame',
    'noref',
    '-i',
    `file:${input}`,
    '-map',
    '0:v:0',
    '-vf',
    `fps=${SAMPLE_RATE},scale=${FRAME_SIZE}:${FRAME_SIZE}:flags=area,format=gray`,
    '-frames:v',
    String(MAX_SAMPLED_FRAMES),
    '-f',
    'rawvideo',
    'pipe:1',
    ...(audioFile
      ? [
          '-map',
          '0:a:0?',
          '-t',
          String(MAX_AUDIO_SECONDS),
          '-ac',
          '1',
          '-f',
          'chromaprint',
          '-algorithm',
          '1',
          '-fp_format',
          'raw',
          `file:${audioFile}`,
        ]
      : []),
  ];
}

/** ffmpeg's complaint when the optional audio map found nothing: the clip has no sound track. */
const NO_AUDIO_STREAM = /Output file #1 does not contain any stream/;
/** ffmpeg's complaints about the input itself (its lines start with the input's URL) or its missing picture. */
const BAD_INPUT =
  /matches no streams|Invalid data found when processing input|No such file or directory|moov atom not found|could not find codec parameters/i;

/**
 * The fingerprint of a clip: {@link fingerprintArgs} run once (twice for a clip without sound not known
 * to be silent: the first run stops at start-up when it finds no audio stream, before decoding anything, and
 * the second leaves the audio out; `hasAudio: false` goes straight to the second). Throws InvalidMediaError for a file ffmpeg cannot read or with no video stream;
 * MediaToolError when ffmpeg cannot run (missing, timed out, aborted).
 */
export async function fingerprintClip(file: string, opts: FingerprintOptions = {}): Promise<ClipFingerprint> {
  if (opts.hasAudio === false) {
    return { version: FINGERPRINT_VERSION, frames: hashFrames(await run(file, undefined, opts), FRAME_SIZE), audio: null };
  }
  const audioFile = join(tmpdir(), `clipit-fingerprint-${randomUUID()}.raw`);
  try {
    let frames: Uint8Array;
    let audio: string | null = null;
    try {
      frames = await run(file, audioFile, opts);
      audio = await readPrint(audioFile);
    } catch (err) {
      if (!(err instanceof MediaToolError && NO_AUDIO_STREAM.test(err.details.stderrTail ?? ''))) throw err;
      frames = await run(file, undefined, opts);
    }
    return { version: FINGERPRINT_VERSION, frames: hashFrames(frames, FRAME_SIZE), audio };
  } finally {
    await rm(audioFile, { force: true });
  }
}

async function run(file: string, audioFile: string | undefined, opts: FingerprintOptions): Promise<Uint8Array> {
  try {
    const { stdoutBytes } = await runTool(opts.ffmpegPath ?? 'ffmpeg', fingerprintArgs(file, audioFile), {
      timeoutMs: opts.timeoutMs ?? 60_000,
      signal: opts.signal,
      maxStdoutBytes: MAX_SAMPLED_FRAMES * FRAME_SIZE * FRAME_SIZE,
      operation: 'fingerprint',
    });
    return stdoutBytes;
  } catch (err) {
    // A clean non-zero exit that names the input is ffmpeg's verdict on the file; anything else (not
    // found, killed, the temporary file not writable) is not, and is worth retrying.
    const tail = err instanceof MediaToolError ? (err.details.stderrTail ?? '') : '';
    if (
      err instanceof MediaToolError &&
      typeof err.details.exitCode === 'number' &&
      !err.details.timedOut &&
      !err.details.aborted &&
      !NO_AUDIO_STREAM.test(tail) &&
      BAD_INPUT.test(tail)
    ) {
      const why = /matches no streams/.test(tail) ? 'no video stream' : `not a readable media file: ${tail.split('\n').pop() ?? ''}`;
      throw new InvalidMediaError(why, tail);
    }
    throw err;
  }
}

/** The raw print ffmpeg wrote, as base64; null when it holds too little sound ({@link isPrintable}). */
async function readPrint(audioFile: string): Promise<string | null> {
  const bytes = await readFile(audioFile).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return Buffer.alloc(0);
    throw err;
  });
  // The muxer writes the values in the machine's byte order.
  const values = new Uint32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < values.length; i += 1) values[i] = bytes.readUInt32LE(i * 4);
  return isPrintable(values) ? encodeAudio(values) : null;
}
