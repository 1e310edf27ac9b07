import '@testing-library/jest-dom/jest-globals';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ClipCarousel, SWIPE_THRESHOLD_PX, type PreviewClip } from './clip-carousel.js';

const clip = (n: number, extra: Partial<PreviewClip> = {}): PreviewClip => ({
  id: `clip-${n}`,
  name: `Clip number ${n}`,
  authorHandle: `author${n}`,
  likes: n * 1000,
  views: n * 1500,
  videoUrl: `/media/clips/${n}.mp4`,
  videoThumbnailUrl: `/media/clips/${n}.jpg`,
  ...extra,
});
const CLIPS = [clip(1), clip(2), clip(3)];

// jsdom has no media playback: record what the carousel asks of each <video>.
let playing: Set<HTMLMediaElement>;
beforeEach(() => {
  playing = new Set();
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    playing.add(this);
    return Promise.resolve();
  });
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    playing.delete(this);
  });
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.restoreAllMocks();
});

const slides = () => screen.getAllByRole('group', { hidden: true });
const videos = () => slides().map((slide) => slide.querySelector('video')!);
/** Which slide is current, checked the way a viewer would notice: the one that is shown, plays and has a source. */
function expectCurrent(index: number) {
  slides().forEach((slide, i) => {
    expect(slide).toHaveAttribute('aria-hidden', String(i !== index));
  });
  const current = videos()[index]!;
  expect([...playing]).toEqual([current]);
  expect(current.muted).toBe(true);
  expect(current.loop).toBe(true);
  expect(videos().filter((v) => v.getAttribute('src'))).toEqual([current]);
  expect(current).toHaveAttribute('src', CLIPS[index]!.videoUrl);
  expect(screen.getByText(CLIPS[index]!.name, { selector: 'p' })).toBeVisible();
  const dots = screen.getAllByRole('button', { name: /^Show clip/ });
  expect(dots.map((d) => d.getAttribute('aria-current'))).toEqual(CLIPS.map((_, i) => (i === index ? 'true' : null)));
}

function setup(clips: readonly PreviewClip[] = CLIPS) {
  render(<ClipCarousel clips={clips} label="Live on Demand clips" />);
  return { user: userEvent.setup(), stage: screen.getByTestId('carousel-stage') };
}

function swipe(stage: HTMLElement, dx: number) {
  fireEvent.pointerDown(stage, { pointerId: 7, clientX: 200, clientY: 300 });
  fireEvent.pointerUp(stage, { pointerId: 7, clientX: 200 + dx, clientY: 300 });
}

describe('ClipCarousel', () => {
  it('plays only the first clip at first, muted and looping, with the posters as images', () => {
    setup();
    expect(screen.getByRole('region', { name: 'Live on Demand clips' })).toHaveAttribute('aria-roledescription', 'carousel');
    expect(slides()).toHaveLength(3);
    expectCurrent(0);
    expect(videos().map((v) => v.getAttribute('preload'))).toEqual(['auto', 'none', 'none']);
    const posters = slides().map((slide) => slide.querySelector('img'));
    expect(posters.map((img) => img?.getAttribute('src'))).toEqual(CLIPS.map((c) => c.videoThumbnailUrl));
    expect(posters[1]).toHaveAttribute('loading', 'lazy');
    expect(screen.getByText('@author1 · 1.5K views · 1.0K likes')).toBeVisible();
  });

  it('next, previous and the dots change which clip plays, wrapping at both ends', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Next clip' }));
    expectCurrent(1);
    await user.click(screen.getByRole('button', { name: 'Next clip' }));
    expectCurrent(2);
    await user.click(screen.getByRole('button', { name: 'Next clip' }));
    expectCurrent(0);
    await user.click(screen.getByRole('button', { name: 'Previous clip' }));
    expectCurrent(2);
    await user.click(screen.getByRole('button', { name: 'Show clip 2 of 3' }));
    expectCurrent(1);
    // A slide that stops being current lets go of its media.
    expect(HTMLMediaElement.prototype.load).toHaveBeenCalled();
  });

  it(`moves on a swipe longer than ${SWIPE_THRESHOLD_PX} px and ignores a shorter one`, () => {
    const { stage } = setup();
    swipe(stage, -SWIPE_THRESHOLD_PX);
    expectCurrent(0);
    swipe(stage, -(SWIPE_THRESHOLD_PX + 1));
    expectCurrent(1);
    swipe(stage, 30);
    expectCurrent(1);
    swipe(stage, 80);
    expectCurrent(0);
    swipe(stage, 80);
    expectCurrent(2);
    swipe(stage, -120);
    expectCurrent(0);
  });

  it('ignores a swipe that the browser cancelled or that another pointer ended', () => {
    const { stage } = setup();
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 300 });
    fireEvent.pointerCancel(stage, { pointerId: 1, clientX: 100 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 100 });
    expectCurrent(0);
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 300 });
    fireEvent.pointerUp(stage, { pointerId: 2, clientX: 100 });
    expectCurrent(0);
  });

  it("says 'Video unavailable' when a clip cannot load, and stops asking for it", () => {
    setup();
    const first = videos()[0]!;
    fireEvent.error(first);
    const slide = slides()[0]!;
    expect(within(slide).getByText('Video unavailable')).toBeVisible();
    expect(first).not.toHaveAttribute('src');
    expect(playing.size).toBe(0);
  });

  it('shows a clip without a video as unavailable, and no controls for a single clip', () => {
    setup([clip(1, { videoUrl: null })]);
    expect(screen.getByText('Video unavailable')).toBeVisible();
    expect(videos()[0]).not.toHaveAttribute('src');
    expect(playing.size).toBe(0);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('loads and plays nothing while it is off screen', () => {
    let report: ((entries: Array<{ isIntersecting: boolean }>) => void) | undefined;
    class FakeObserver {
      constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
        report = callback;
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'IntersectionObserver', { value: FakeObserver, configurable: true, writable: true });
    try {
      setup();
      expect(videos().filter((v) => v.getAttribute('src'))).toEqual([]);
      expect(playing.size).toBe(0);
      act(() => report!([{ isIntersecting: true }]));
      expectCurrent(0);
      act(() => report!([{ isIntersecting: false }]));
      expect(videos().filter((v) => v.getAttribute('src'))).toEqual([]);
      expect(playing.size).toBe(0);
      expect(HTMLMediaElement.prototype.load).toHaveBeenCalled();
    } finally {
      Reflect.deleteProperty(window, 'IntersectionObserver');
    }
  });
});
