import { InvalidMediaError } from '../errors.js';
import { aspectRatioOf, parseProbe, probeArgs, reduceRatio, rotationOf, type FfprobeOutput } from './probe.js';

const video = (patch: Partial<NonNullable<FfprobeOutput['streams']>[number]> = {}) => ({
  codec_type: 'video',
  codec_name: 'h264',
  profile: 'High',
  level: 31,
  pix_fmt: 'yuv420p',
  width: 720,
  height: 1280,
  sample_aspect_ratio: '1:1',
  display_aspect_ratio: '9:16',
  duration: '10.000000',
  disposition: { attached_pic: 0 },
  ...patch,
});
const aac = { codec_type: 'audio', codec_name: 'aac', duration: '10.010000' };
const mp4 = { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.010000', bit_rate: '2500123' };

describe('probeArgs', () => {
  it('asks for JSON with format and streams and passes the file as a file: URL, never as an option', () => {
    expect(probeArgs('-evil.mp4')).toEqual([
      '-v',
      'error',
      '-hide_banner',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      'file:-evil.mp4',
    ]);
  });
});

describe('parseProbe', () => {
  it('reads a portrait H.264/AAC MP4', () => {
    expect(parseProbe({ streams: [video(), aac], format: mp4 })).toEqual({
      durationSeconds: 10.01,
      width: 720,
      height: 1280,
      aspectRatio: '9:16',
      videoCodec: 'h264',
      videoProfile: 'High',
      videoLevel: 31,
      pixelFormat: 'yuv420p',
      audioCodec: 'aac',
      bitRate: 2500123,
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
      rotation: 0,
    });
  });

  it("takes the bit rate from the file's size over its duration when ffprobe gives none, and says null when neither is known", () => {
    const sized = { format_name: 'matroska,webm', duration: '8.000000', size: '2000000' };
    expect(parseProbe({ streams: [video()], format: sized }).bitRate).toBe(2_000_000);
    const bare = { format_name: 'matroska,webm', duration: '8.000000' };
    expect(parseProbe({ streams: [video({ profile: undefined, level: -99, pix_fmt: undefined })], format: bare })).toMatchObject({
      bitRate: null,
      videoProfile: null,
      videoLevel: null,
      pixelFormat: null,
    });
  });

  it('gives audioCodec null for a silent video', () => {
    expect(parseProbe({ streams: [video()], format: mp4 }).audioCodec).toBeNull();
  });

  it('swaps width and height for a phone video recorded sideways (display matrix rotation)', () => {
    const sideways = video({
      width: 1920,
      height: 1080,
      display_aspect_ratio: '16:9',
      side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }],
    });
    expect(parseProbe({ streams: [sideways, aac], format: mp4 })).toMatchObject({
      width: 1080,
      height: 1920,
      aspectRatio: '9:16',
      rotation: 270,
    });
  });

  it('reads the older rotate tag too, and leaves a 180° turn unswapped', () => {
    expect(
      parseProbe({ streams: [video({ width: 1280, height: 720, display_aspect_ratio: '16:9', tags: { rotate: '90' } })], format: mp4 }),
    ).toMatchObject({
      width: 720,
      height: 1280,
      rotation: 90,
    });
    expect(parseProbe({ streams: [video({ tags: { rotate: '180' } })], format: mp4 })).toMatchObject({
      width: 720,
      height: 1280,
      rotation: 180,
    });
  });

  it('falls back to the stream duration when the container has none (some WebM files)', () => {
    expect(parseProbe({ streams: [video({ duration: '45.5' })], format: { format_name: 'matroska,webm' } }).durationSeconds).toBe(45.5);
  });

  it('ignores cover art: an MP3 with a picture is not a video', () => {
    const cover = video({ codec_name: 'mjpeg', disposition: { attached_pic: 1 } });
    expect(() =>
      parseProbe({ streams: [{ codec_type: 'audio', codec_name: 'mp3' }, cover], format: { format_name: 'mp3', duration: '200' } }),
    ).toThrow(new InvalidMediaError('no video stream'));
  });

  it.each([
    ['no streams at all', { streams: [], format: { format_name: 'tty' } }, /no video stream/],
    [
      'a JPEG',
      { streams: [video({ codec_name: 'mjpeg', duration: undefined })], format: { format_name: 'image2', duration: '0.04' } },
      /still image/,
    ],
    ['a PNG piped', { streams: [video({ codec_name: 'png' })], format: { format_name: 'png_pipe' } }, /still image/],
    ['no size', { streams: [video({ width: 0, height: 0 })], format: mp4 }, /no picture size/],
    ['no duration', { streams: [video({ duration: 'N/A' })], format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } }, /no duration/],
  ])('refuses %s with InvalidMediaError', (_what, output, message) => {
    expect(() => parseProbe(output as FfprobeOutput)).toThrow(InvalidMediaError);
    expect(() => parseProbe(output as FfprobeOutput)).toThrow(message);
  });
});

describe('rotationOf', () => {
  it.each([
    [undefined, 0],
    [90, 90],
    [-90, 270],
    [180, 180],
    [-180, 180],
    [270, 270],
    [89.9, 90],
  ])('display matrix rotation %p → %p', (rotation, expected) => {
    expect(rotationOf({ side_data_list: rotation === undefined ? [] : [{ side_data_type: 'Display Matrix', rotation }] })).toBe(expected);
  });
});

describe('aspectRatioOf', () => {
  it('prefers display_aspect_ratio when it agrees with the picture', () => {
    expect(aspectRatioOf('9:16', '1:1', 720, 1280, false)).toBe('9:16');
  });

  it('accounts for non-square pixels (anamorphic DVD: 720x480 shown as 16:9)', () => {
    expect(aspectRatioOf('16:9', '32:27', 720, 480, false)).toBe('16:9');
    expect(aspectRatioOf(undefined, '32:27', 720, 480, false)).toBe('16:9');
  });

  it('computes from the size when display_aspect_ratio is missing, zero or nonsense', () => {
    expect(aspectRatioOf('0:1', '0:1', 1080, 1920, false)).toBe('9:16');
    expect(aspectRatioOf('4:3', '1:1', 1080, 1920, false)).toBe('9:16');
    expect(aspectRatioOf(undefined, undefined, 718, 1280, false)).toBe('359:640');
  });

  it('turns with the picture', () => {
    expect(aspectRatioOf('16:9', '1:1', 1920, 1080, true)).toBe('9:16');
  });

  it('reduces', () => {
    expect(reduceRatio(1920, 1080)).toBe('16:9');
    expect(reduceRatio(1000, 1000)).toBe('1:1');
  });
});
