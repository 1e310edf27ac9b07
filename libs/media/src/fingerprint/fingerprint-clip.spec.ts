import { describe, expect, it } from '@jest/globals';
import { MAX_SAMPLED_FRAMES } from '@clipit/fingerprint';
import { fingerprintArgs } from './fingerprint-clip.js';

describe('fingerprintArgs', () => {
  it('reads the clip once: gray frames every 2/3 s on stdout, the raw Chromaprint into the file', () => {
    const args = fingerprintArgs('/in/clip.mp4', '/tmp/print.raw');
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 2)).toEqual(['-i', 'file:/in/clip.mp4']);
    expect(args).toContain('fps=3/2,scale=256:256:flags=area,format=gray');
    const video = args.indexOf('0:v:0');
    expect(args.slice(video, args.indexOf('pipe:1') + 1)).toEqual(
      expect.arrayContaining(['-frames:v', String(MAX_SAMPLED_FRAMES), '-f', 'rawvideo', 'pipe:1']),
    );
    const audio = args.slice(args.indexOf('0:a:0?'));
    expect(audio).toEqual(expect.arrayContaining(['-f', 'chromaprint', '-algorithm', '1', '-fp_format', 'raw']));
    expect(audio.at(-1)).toBe('file:/tmp/print.raw');
  });

  it('names inputs and outputs as files, so a name starting with - is never an option', () => {
    const args = fingerprintArgs('-clip.mp4', '-print.raw');
    expect(args).toContain('file:-clip.mp4');
    expect(args).toContain('file:-print.raw');
    expect(args).not.toContain('-clip.mp4');
  });

  it('leaves the audio out when given no file for it (a clip without sound)', () => {
    const args = fingerprintArgs('/in/clip.mp4');
    expect(args).not.toContain('chromaprint');
    expect(args.filter((a) => a.startsWith('0:a'))).toEqual([]);
    expect(args.at(-1)).toBe('pipe:1');
  });
});
