import { posterArgs, posterTime, remuxArgs, remuxForWeb, scaleFilter, synthesizeArgs, transcodeArgs, videoRateFor } from './transcode.js';

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

describe('the bit-rate cap of a transcode', () => {
  it("holds the video's peak rate, over a one-second buffer, to what the cap leaves after the audio and the container", () => {
    expect(videoRateFor(8_000_000)).toBe(7_635_840);
    const args = transcodeArgs('/tmp/in.mov', '/tmp/out.mp4', 1080, 2_000_000);
    expect(valueOf(args, '-maxrate')).toBe(String(videoRateFor(2_000_000)));
    expect(valueOf(args, '-bufsize')).toBe(String(videoRateFor(2_000_000)));
    expect(valueOf(args, '-b:a')).toBe('128000');
    expect(valueOf(transcodeArgs('/tmp/in.mov', '/tmp/out.mp4'), '-maxrate')).toBe('7635840');
  });

  it('refuses a cap that leaves the video nothing', () => {
    expect(() => videoRateFor(200_000)).toThrow(RangeError);
  });
});

describe('remuxForWeb', () => {
  it("refuses to start without the source's duration, which its bit rate is measured over", async () => {
    await expect(remuxForWeb('/tmp/in.mp4', '/tmp/out.mp4', { durationSeconds: 0 })).rejects.toThrow(RangeError);
  });
});

describe('remuxArgs', () => {
  const args = remuxArgs('/tmp/in.mov', '/tmp/out.mp4');

  it('copies the first video and audio streams as they are into a faststart MP4, without the source metadata', () => {
    expect(args.filter((a, i) => args[i - 1] === '-map')).toEqual(['0:v:0', '0:a:0?']);
    expect(valueOf(args, '-c')).toBe('copy');
    expect(valueOf(args, '-movflags')).toBe('+faststart');
    expect(valueOf(args, '-map_metadata')).toBe('-1');
    expect(args).toEqual(expect.arrayContaining(['-sn', '-dn', '-nostdin', '-y']));
    expect(args).not.toContain('-vf');
    expect(args[args.length - 1]).toBe('file:/tmp/out.mp4');
  });
});

describe('synthesizeArgs', () => {
  it('makes the kinds of clip the remux rule is tested on', () => {
    const args = synthesizeArgs({
      path: '/tmp/c.webm',
      durationSeconds: 2,
      width: 720,
      height: 1280,
      withAudio: true,
      pattern: 'moving',
      watermark: 'top-right',
      keyframeSeconds: 1,
      video: { codec: 'vp9' },
      audioCodec: 'opus',
      container: 'webm',
    });
    expect(args).toContain('testsrc=size=720x1280:rate=30:duration=2.000,scroll=horizontal=0.01:vertical=0.007');
    expect(valueOf(args, '-vf')).toMatch(/^drawbox=x=iw\*0\.62/);
    expect(valueOf(args, '-c:v')).toBe('libvpx-vp9');
    expect(valueOf(args, '-g')).toBe('30');
    expect(valueOf(args, '-c:a')).toBe('libopus');
    expect(args.slice(-3)).toEqual(['-f', 'webm', 'file:/tmp/c.webm']);
    const faststart = synthesizeArgs({
      path: '/tmp/c.mp4',
      durationSeconds: 1,
      width: 8,
      height: 8,
      withAudio: false,
      faststart: true,
      video: { profile: 'high', level: '4.2', bitRate: 5_000_000 },
    });
    const cbr = synthesizeArgs({
      path: '/tmp/c.mp4',
      durationSeconds: 1,
      width: 8,
      height: 8,
      withAudio: false,
      video: { bitRate: 12_000_000, constantBitRate: true },
    });
    expect(cbr).toEqual(expect.arrayContaining(['-minrate', '12000000', '-x264-params', 'nal-hrd=cbr']));
    expect(faststart).toEqual(
      expect.arrayContaining([
        '-profile:v',
        'high',
        '-level:v',
        '4.2',
        '-b:v',
        '5000000',
        '-maxrate',
        '5000000',
        '-movflags',
        '+faststart',
      ]),
    );
  });

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
