import { runTool } from './ffmpeg/run.js';
import { probe, type ProbeResult } from './ffmpeg/probe.js';
import { enoughOrSteady, sampleFrames } from './ffmpeg/frames.js';
import { prepareForWeb, type Prepared } from './ffmpeg/prepare.js';
import {
  DEFAULT_MAX_LONG_SIDE,
  makePoster,
  remuxForWeb,
  synthesizeClip,
  transcodeForWeb,
  type RemuxResult,
  type SynthesizeClipSpec,
} from './ffmpeg/transcode.js';
import { estimateWatermark, SAMPLE_SIZE, type WatermarkEstimate } from './watermark.js';
import { fingerprintClip, type ClipFingerprint } from './fingerprint/index.js';
import type { MediaToolsConfig } from './config.js';

export interface MediaToolsOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** Longest an ffprobe run may take. */
  probeTimeoutMs?: number;
  /** Longest the poster or the web MP4 may take to make. */
  transcodeTimeoutMs?: number;
}

/**
 * The media functions bound to one pair of binaries and time limits, so a service configures them
 * once (FFMPEG_PATH, FFPROBE_PATH) and its tests can stand in something else with the same shape.
 */
export class MediaTools {
  constructor(readonly options: MediaToolsOptions) {}

  static fromConfig(config: MediaToolsConfig, limits: Pick<MediaToolsOptions, 'probeTimeoutMs' | 'transcodeTimeoutMs'> = {}): MediaTools {
    return new MediaTools({ ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH, ...limits });
  }

  probe(file: string, signal?: AbortSignal): Promise<ProbeResult> {
    return probe(file, { ffprobePath: this.options.ffprobePath, timeoutMs: this.options.probeTimeoutMs, signal });
  }

  makePoster(
    input: string,
    output: string,
    opts: { durationSeconds?: number; maxLongSide?: number; signal?: AbortSignal } = {},
  ): Promise<void> {
    return makePoster(input, output, {
      ...this.tools(opts.signal),
      maxLongSide: opts.maxLongSide ?? DEFAULT_MAX_LONG_SIDE,
      durationSeconds: opts.durationSeconds,
    });
  }

  transcodeForWeb(
    input: string,
    output: string,
    opts: { maxLongSide?: number; maxBitRate?: number; durationSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<ProbeResult> {
    return transcodeForWeb(input, output, {
      ...this.tools(opts.signal),
      maxLongSide: opts.maxLongSide ?? DEFAULT_MAX_LONG_SIDE,
      ...(opts.maxBitRate === undefined ? {} : { maxBitRate: opts.maxBitRate }),
      ...(opts.durationSeconds === undefined ? {} : { durationSeconds: opts.durationSeconds }),
    });
  }

  /** The streams as they are, in a faststart MP4 (for a source that plays as it is), given the source's duration. */
  remuxForWeb(input: string, output: string, opts: { durationSeconds: number; signal?: AbortSignal }): Promise<RemuxResult> {
    return remuxForWeb(input, output, { ...this.tools(opts.signal), durationSeconds: opts.durationSeconds });
  }

  /**
   * The poster, the keyframes for the watermark estimate and, with `remuxFile`, the faststart remux of a
   * source that plays as it is, from one ffmpeg ({@link prepareForWeb}).
   */
  prepareForWeb(
    input: string,
    opts: { posterFile: string; remuxFile?: string | undefined; durationSeconds: number; maxLongSide?: number; signal?: AbortSignal },
  ): Promise<Prepared> {
    const { signal, maxLongSide, ...files } = opts;
    return prepareForWeb(input, { ...this.tools(signal), ...files, maxLongSide: maxLongSide ?? DEFAULT_MAX_LONG_SIDE });
  }

  /**
   * The top-right watermark estimate, from frames sampled over the clip: the `keyframes` a
   * {@link prepareForWeb} read when given (frames half a second apart read when they are too few), else read here.
   */
  async estimateWatermark(
    input: string,
    opts: { signal?: AbortSignal; keyframes?: Uint8Array | undefined } = {},
  ): Promise<WatermarkEstimate> {
    const frames = opts.keyframes
      ? await enoughOrSteady(input, opts.keyframes, this.tools(opts.signal))
      : await sampleFrames(input, this.tools(opts.signal));
    return estimateWatermark(frames, SAMPLE_SIZE.width, SAMPLE_SIZE.height);
  }

  /** The clip's re-upload fingerprint (frame hashes and Chromaprint, ADR 0048), from one ffmpeg; `hasAudio` when known. */
  fingerprint(file: string, signal?: AbortSignal, hasAudio?: boolean): Promise<ClipFingerprint> {
    return fingerprintClip(file, { ffmpegPath: this.options.ffmpegPath, timeoutMs: this.options.transcodeTimeoutMs, signal, hasAudio });
  }

  synthesizeClip(spec: SynthesizeClipSpec, signal?: AbortSignal): Promise<void> {
    return synthesizeClip(spec, this.tools(signal));
  }

  /** Throws unless both binaries run (`-version`); for readiness checks and start-up. */
  async check(signal?: AbortSignal): Promise<void> {
    for (const binary of [this.options.ffmpegPath, this.options.ffprobePath]) {
      await runTool(binary, ['-hide_banner', '-version'], { timeoutMs: 5000, signal, maxStdoutBytes: 1 << 20 });
    }
  }

  /**
   * `check()` for a readiness probe, run at most once per `everyMs` (each run starts two processes);
   * between runs it answers the last result.
   */
  cachedCheck(everyMs = 60_000): () => Promise<void> {
    let last: { at: number; error?: Error } | undefined;
    return async () => {
      if (!last || Date.now() - last.at > everyMs) {
        const run: { at: number; error?: Error } = { at: Date.now() };
        last = run;
        await this.check().catch((err: Error) => (run.error = err));
      }
      if (last.error) throw last.error;
    };
  }

  private tools(signal: AbortSignal | undefined) {
    return {
      ffmpegPath: this.options.ffmpegPath,
      ffprobePath: this.options.ffprobePath,
      timeoutMs: this.options.transcodeTimeoutMs,
      signal,
    };
  }
}
