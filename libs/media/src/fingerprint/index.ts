// Making a clip's re-upload fingerprint with ffmpeg (ADR 0048). What a fingerprint is, and comparing two, are
// @clipit/fingerprint's (no ffmpeg), re-exported here for the media worker's convenience.
export * from '@clipit/fingerprint';
export { fingerprintClip, SAMPLE_SECONDS, type FingerprintOptions } from './fingerprint-clip.js';
