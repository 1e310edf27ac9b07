/**
 * Storage keys, and which of them the public may read. Every key a service writes is built here, so
 * the gateway's allow-list for GET /media/* cannot miss a published kind of object or include a private one.
 */

/** Storage keys of one video's objects: the upload, and what the worker makes of it. */
export const mediaKeys = {
  /** The bytes as the client sent them: unchecked, read only by the media worker. Never published. */
  upload: (videoId: string) => `uploads/${videoId}`,
  video: (videoId: string) => `videos/${videoId}/video.mp4`,
  poster: (videoId: string) => `videos/${videoId}/poster.jpg`,
  /** A user's profile picture (identity's; the bytes were checked to be an image before they were stored). */
  profileImage: (userId: string, nonce: string, ext: string) => `profile-images/${userId}-${nonce}.${ext}`,
  /** A user's banner (identity's). */
  bannerImage: (userId: string, nonce: string, ext: string) => `banner-images/${userId}-${nonce}.${ext}`,
} as const;

/**
 * Key prefixes of published objects, the only ones GET /media/* serves: processed videos and their
 * posters (the media worker's), profile and banner images (identity's). Everything else, above all
 * `uploads/`, is private to the pipeline, which reads storage directly.
 */
export const PUBLISHED_MEDIA_PREFIXES = ['videos/', 'profile-images/', 'banner-images/'] as const;

/** Whether a key names a published object (the key's own safety is the storage driver's check). */
export function isPublishedMediaKey(key: string): boolean {
  return PUBLISHED_MEDIA_PREFIXES.some((prefix) => key.startsWith(prefix) && key.length > prefix.length);
}
