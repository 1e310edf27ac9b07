/** The picture formats identity stores, recognised by their first bytes (the declared type is not trusted). */
export const imageTypes = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
} as const;

export type ImageKind = keyof typeof imageTypes;
export interface SniffedImage {
  kind: ImageKind;
  mime: (typeof imageTypes)[ImageKind]['mime'];
  ext: (typeof imageTypes)[ImageKind]['ext'];
}

export const MAX_PROFILE_PICTURE_BYTES = 5 * 1024 * 1024;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Answers the image format the bytes really are, or undefined when they are not one we accept. */
export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  let kind: ImageKind | undefined;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) kind = 'jpeg';
  else if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) kind = 'png';
  else if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) kind = 'gif';
  else if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) kind = 'webp';
  return kind ? { kind, ...imageTypes[kind] } : undefined;
}
