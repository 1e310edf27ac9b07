// Re-upload fingerprints (ADR 0048; README): what a clip is recognised by, and how a store finds and compares
// candidates. Pure code, no ffmpeg: the media worker makes fingerprints with @clipit/media's fingerprintClip,
// submissions stores and compares them with this. The thresholds and why are in the files beside it.
export { FINGERPRINT_VERSION, MAX_SAMPLED_FRAMES, type ClipFingerprint, type FingerprintComparison } from './types.js';
export { compareFingerprints, isReupload } from './compare.js';
export { indexKeys, MIN_SHARED_KEYS, probeKeys, sharedKeys } from './keys.js';
export { parseFingerprint } from './parse.js';
// For fingerprintClip (@clipit/media): the frames' hashing and the sound's encoding.
export { FRAME_SIZE, hashFrames, ZOOMS } from './frame-hash.js';
export { encodeAudio, isPrintable } from './audio-match.js';
