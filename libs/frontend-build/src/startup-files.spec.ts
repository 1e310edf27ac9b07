import { describe, expect, it } from '@jest/globals';
// @ts-expect-error: the build helpers are plain ESM JavaScript (rspack configs import them as they are).
import { startupFiles } from './index.mjs';

// Chunks as rspack's stats describe the shell's build: its entry, the chunks of its own imports, the
// chunks providing shared packages and the fallbacks of the packages it consumes.
const provide = (name: string) => ({ moduleName: `provide shared module (default) ${name}@1.0.0 = /repo/node_modules/${name}/index.js` });
const consume = (name: string) => ({
  moduleName: `consume shared module (default) ${name}@^1.0.0 (strict) (fallback: /repo/node_modules/${name}/index.js)`,
});
const stats = {
  chunks: [
    { initial: false, files: ['js/10.a.js'], origins: [consume('react-dom')] },
    { initial: false, files: ['js/11.b.js'], origins: [provide('react-dom')] },
    {
      initial: true,
      files: ['css/main.c.css', 'js/main.c.js', 'js/main.c.js.map'],
      origins: [{ moduleName: '', request: './src/index.tsx' }],
    },
    { initial: false, files: ['js/12.d.js'], origins: [provide('@clipit/ui'), consume('@clipit/ui')] },
    { initial: false, files: ['js/13.e.js'], origins: [provide('@clipit/only-provided')] },
    { initial: false, files: ['css/14.f.css', 'js/14.f.js'], origins: [{ moduleName: './src/index.tsx', request: './bootstrap.js' }] },
  ],
};

describe('startupFiles', () => {
  it('lists the entry first, then its own chunks and the providers of what it consumes, never a consume fallback or an unused provider', () => {
    expect(startupFiles(stats)).toEqual(['css/main.c.css', 'js/main.c.js', 'css/14.f.css', 'js/11.b.js', 'js/12.d.js', 'js/14.f.js']);
  });

  it('is just the entry when everything is in it (eager shared modules)', () => {
    expect(startupFiles({ chunks: [stats.chunks[2]] })).toEqual(['css/main.c.css', 'js/main.c.js']);
  });
});
