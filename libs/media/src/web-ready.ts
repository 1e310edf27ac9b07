import type { ProbeResult } from './ffmpeg/probe.js';
import { DEFAULT_MAX_BIT_RATE } from './ffmpeg/transcode.js';

/**
 * What every phone's and browser's player plays as it is: H.264 in one of the three common profiles up
 * to level 4.2 in 4:2:0, AAC or no audio, no larger than 1080x1920 either way, under a bit-rate cap. An
 * upload inside these bounds only needs its streams copied into a faststart MP4 (a remux, a fraction of
 * a second); anything else is transcoded (ADR 0047).
 */
export const WEB_READY = {
  videoCodec: 'h264',
  /** ffprobe's names for H.264's baseline, main and high profiles (High 10, 4:2:2 and 4:4:4 are left out). */
  profiles: ['Baseline', 'Constrained Baseline', 'Main', 'High'],
  /** Level 4.2, as ffprobe gives H.264 levels (times ten). */
  maxLevel: 42,
  pixelFormats: ['yuv420p'],
  audioCodecs: ['aac'],
  /** The displayed frame, portrait or landscape. */
  maxLongSide: 1920,
  maxShortSide: 1080,
} as const;

export type WebReadyVerdict = { playsAsIs: true } | { playsAsIs: false; why: string[] };

/**
 * Whether the upload plays as it is (then a remux serves it), and if not, every reason why not, for the
 * worker's log. Where the index (moov) sits does not matter: the remux writes it first.
 */
export function webReadiness(probe: ProbeResult, maxBitRate: number = DEFAULT_MAX_BIT_RATE): WebReadyVerdict {
  const why: string[] = [];
  if (probe.videoCodec !== WEB_READY.videoCodec) why.push(`video codec ${probe.videoCodec}, not H.264`);
  else {
    if (!probe.videoProfile || !(WEB_READY.profiles as readonly string[]).includes(probe.videoProfile))
      why.push(`H.264 profile ${probe.videoProfile ?? 'unknown'}`);
    if (probe.videoLevel === null || probe.videoLevel > WEB_READY.maxLevel)
      why.push(`H.264 level ${probe.videoLevel === null ? 'unknown' : (probe.videoLevel / 10).toFixed(1)}, above 4.2`);
  }
  if (!probe.pixelFormat || !(WEB_READY.pixelFormats as readonly string[]).includes(probe.pixelFormat))
    why.push(`pixel format ${probe.pixelFormat ?? 'unknown'}, not yuv420p`);
  if (probe.audioCodec !== null && !(WEB_READY.audioCodecs as readonly string[]).includes(probe.audioCodec))
    why.push(`audio codec ${probe.audioCodec}, not AAC`);
  const long = Math.max(probe.width, probe.height);
  const short = Math.min(probe.width, probe.height);
  if (long > WEB_READY.maxLongSide || short > WEB_READY.maxShortSide) why.push(`${probe.width}x${probe.height}, larger than 1080x1920`);
  if (probe.bitRate === null) why.push('bit rate unknown');
  else if (probe.bitRate >= maxBitRate)
    why.push(`${Math.round(probe.bitRate / 1000)} kb/s, not under the ${Math.round(maxBitRate / 1000)} kb/s cap`);
  return why.length === 0 ? { playsAsIs: true } : { playsAsIs: false, why };
}
