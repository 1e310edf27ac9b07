import { posterArgs, posterTime, scaleFilter, synthesizeArgs, transcodeArgs } from './transcode.js';

/** The value following an option in an argument list. */
const valueOf = (args: string[], option: string) => args[args.indexOf(option) + 1];

/** Evaluates the scale filter's expressions for a given input size, as ffmpeg would. */
function scaled(filter: string, iw: number, ih: number): [number, number] {
  const m = /^scale=w='(.+)':h='(.+)'$/.exec(filter);
  if (!m) throw new Error(`unexpected filter ${filter}`);
  const evaluate = (expr: string) =>
    new Function('iw', 'ih', 'min', 'max', 'trunc', `return ${expr};`)(iw, ih, Math.min, Math.max, Math.trunc) as number;
  return [evaluate(m[1]!), evaluate(m[2]!)];
}

describe('scaleFilter', () => {
  it.each([
    [1080, 1920, 1080, 606, 1080],
    [1920, 1080, 1080, 1080, 606],
    [720, 1280, 1080, 606, 1080],
    [720, 1280, 720, 404, 720],
    [2160, 3840, 1080, 606, 1080],
  ])('%p x %p with long side ≤ %p → %p x %p (even, aspect kept)', (iw, ih, max, w, h) => {
    expect(scaled(scaleFilter(max), iw, ih)).toEqual([w, h]);
  });

  it('never upscales, and rounds odd sizes down to even', () => {
    expect(scaled(scaleFilter(1080), 720, 1280)).toEqual([606, 1080]); // (the 1080 case above is the downscale)
    expect(scaled(scaleFilter(1920), 720, 1280)).toEqual([720, 1280]);
    expect(scaled(scaleFilter(1080), 481, 855)).toEqual([480, 854]);
    expect(scaled(scaleFilter(1080), 1, 1)).toEqual([2, 2]);
  });

  it('refuses a nonsense limit', () => {
    expect(() => scaleFilter(0)).toThrow(RangeError);
    expect(() => scaleFilter(10.5)).toThrow(RangeError);
  });
});

describe('posterTime', () => {
  it('is one second in, or half-way through a shorter clip', () => {
    expect(posterTime(10)).toBe(1);
    expect(posterTime(1.5)).toBe(0.75);
    expect(posterTime(0.2)).toBe(0.1);
    expect(posterTime(0)).toBe(0);
  });
});

describe('posterArgs', () => {
  const args = posterArgs('/tmp/in.mp4', '/tmp/poster.jpg', 1);

  it('seeks before the input, takes one frame of the first video stream and writes a JPEG', () => {
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(valueOf(args, '-ss')).toBe('1.000');
    expect(valueOf(args, '-i')).toBe('file:/tmp/in.mp4');
    expect(valueOf(args, '-frames:v')).toBe('1');
    expect(valueOf(args, '-map')).toBe('0:v:0');
    expect(valueOf(args, '-c:v')).toBe('mjpeg');
    expect(valueOf(args, '-vf')).toBe(scaleFilter(1080));
    expect(args[args.length - 1]).toBe('file:/tmp/poster.jpg');
  });

  it('never reads stdin and overwrites', () => {
    expect(args).toEqual(expect.arrayContaining(['-nostdin', '-y']));
  });
});

describe('transcodeArgs', () => {
  const args = transcodeArgs('/tmp/in.mov', '/tmp/out.mp4', 1080);

  it('makes H.264 in yuv420p, scaled to at most 1080 on the long side', () => {
    expect(valueOf(args, '-c:v')).toBe('libx264');
    expect(valueOf(args, '-pix_fmt')).toBe('yuv420p');
    expect(valueOf(args, '-vf')).toBe(`${scaleFilter(1080)},format=yuv420p`);
    expect(valueOf(args, '-fpsmax')).toBe('60');
  });

  it('makes AAC from the first audio stream if there is one', () => {
    expect(args.filter((a, i) => args[i - 1] === '-map')).toEqual(['0:v:0', '0:a:0?']);
    expect(valueOf(args, '-c:a')).toBe('aac');
  });

  it('writes an MP4 with the index first (faststart) and no metadata of the source', () => {
    expect(valueOf(args, '-movflags')).toBe('+faststart');
    expect(valueOf(args, '-f')).toBe('mp4');
    expect(valueOf(args, '-map_metadata')).toBe('-1');
    expect(args[args.length - 1]).toBe('file:/tmp/out.mp4');
  });
});

describe('synthesizeArgs', () => {
  it('encodes testsrc, with a sine tone when asked', () => {
    const args = synthesizeArgs({ path: '/tmp/c.mp4', durationSeconds: 10, width: 720, height: 1280, withAudio: true, fps: 15 });
    expect(args).toEqual(
      expect.arrayContaining([
        'testsrc=size=720x1280:rate=15:duration=10.000',
        'sine=frequency=440:sample_rate=48000:duration=10.000',
        'aac',
      ]),
    );
    expect(args[args.length - 1]).toBe('file:/tmp/c.mp4');
  });

  it('has no audio input or codec when silent', () => {
    const args = synthesizeArgs({ path: '/tmp/c.mp4', durationSeconds: 3, width: 640, height: 360, withAudio: false });
    expect(args.join(' ')).not.toMatch(/sine|aac/);
    expect(args).toContain('testsrc=size=640x360:rate=30:duration=3.000');
  });
});
