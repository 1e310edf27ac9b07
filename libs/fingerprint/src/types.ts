/** Bumped whenever a change to sampling, hashing or printing makes old fingerprints incomparable with new ones. */
export const FINGERPRINT_VERSION = 1;

/** At most this many frames are sampled from a clip (40 s of clip at 1.5 a second: clips are at most 40 s). */
export const MAX_SAMPLED_FRAMES = 60;

/** What a clip is recognised by when it comes back as a re-upload (see README, "Re-upload fingerprints"). */
export interface ClipFingerprint {
  version: 1;
  /**
   * 64-bit perceptual hashes of frames sampled at a fixed interval, letterbox/pillarbox bars removed, mirror-invariant; 16 lowercase hex digits each. Near-uniform frames (black, one colour) are left out.
   * Three per sampled frame, in order: the views of ZOOMS (the content box, then two centred crops of it, so a cropped copy meets its original); plain frames (a gradient, a wall) are left out too.
   */
  frames: string[];
  /** Chromaprint's raw fingerprint (ffmpeg's `chromaprint` muxer, -fp_format raw) as base64 of the little-endian uint32 values; null when the clip has no audio track or too little sound to print. */
  audio: string | null;
}

export interface FingerprintComparison {
  /** 0 = the same pictures, 1 = nothing alike: the median, over the frames of the better-covered of the two clips, of the Hamming distance to the nearest frame of the other clip, divided by 64. */
  videoDistance: number;
  /** videoDistance within the threshold AND enough frames (at least 3, or most of the shorter clip) have a near frame in the other clip. */
  videoMatches: boolean;
  /** Whether the audio fingerprints match (robust to a trim and to a 1.1× speed-up done with atempo); null when either clip has no audio fingerprint. */
  audioMatches: boolean | null;
}
