import type { EventData, EventEnvelope, FingerprintVideoJob } from '@clipit/contracts';
import type { ClipFingerprint, Prepared, ProbeResult, RemuxResult, WatermarkEstimate } from '@clipit/media';
import type { StorageDriver } from '@clipit/storage';
import type { EventSink as KitEventSink, KeptJob } from '@clipit/worker-kit';

/** What the job needs of ffmpeg/ffprobe (MediaTools from @clipit/media). */
export interface VideoTools {
  probe(file: string, signal?: AbortSignal): Promise<ProbeResult>;
  makePoster(input: string, output: string, opts: { durationSeconds?: number; maxLongSide?: number; signal?: AbortSignal }): Promise<void>;
  transcodeForWeb(
    input: string,
    output: string,
    opts: { maxLongSide?: number; maxBitRate?: number; durationSeconds?: number; signal?: AbortSignal },
  ): Promise<ProbeResult>;
  remuxForWeb(input: string, output: string, opts: { durationSeconds: number; signal?: AbortSignal }): Promise<RemuxResult>;
  /** The poster, the watermark's keyframes and, with `remuxFile`, the remux, from one ffmpeg. */
  prepareForWeb(
    input: string,
    opts: { posterFile: string; remuxFile?: string | undefined; durationSeconds: number; maxLongSide?: number; signal?: AbortSignal },
  ): Promise<Prepared>;
  estimateWatermark(input: string, opts: { signal?: AbortSignal; keyframes?: Uint8Array | undefined }): Promise<WatermarkEstimate>;
}

/** The two facts the worker states. */
export type MediaEvent =
  EventEnvelope<'media.processed', EventData<'media.processed'>> | EventEnvelope<'media.failed', EventData<'media.failed'>>;

/** Where facts go (the kit's EventPublisher): resolves once JetStream has stored the event. */
export type EventSink = KitEventSink<MediaEvent>;

/** What a fingerprint-video job needs of ffmpeg (MediaTools from @clipit/media). */
export interface FingerprintTools {
  /** `hasAudio` as the job has it: false skips looking for a sound track to print. */
  fingerprint(file: string, signal?: AbortSignal, hasAudio?: boolean): Promise<ClipFingerprint>;
}

/** The fact a fingerprint-video job states. */
export type FingerprintEvent = EventEnvelope<'media.fingerprinted', EventData<'media.fingerprinted'>>;

export type FingerprintSink = KitEventSink<FingerprintEvent>;

/** Where a processed video's fingerprint job goes (the media queue, enqueueFingerprintVideo); adding it again adds nothing. */
export interface FingerprintQueue {
  enqueue(job: FingerprintVideoJob): Promise<unknown>;
}

/** Object storage as the job uses it. */
export type ObjectStore = Pick<StorageDriver, 'stat' | 'download' | 'upload' | 'delete'>;

/**
 * The parts of a BullMQ job the handler reads and writes. `progress` holds what the job decided
 * (the event), so a run after a crash states the same fact instead of deciding again.
 */
export interface VideoJob extends KeptJob {
  opts: { attempts?: number | undefined };
}
