import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import ClientServicesPage from './client-services-page.js';

describe('/client-services', () => {
  it('shows two sample clips, the offers and why CLIP IT, and every call to action goes to /discover', () => {
    fakeGateway();
    renderScreen(<ClientServicesPage />, '/client-services');
    expect(screen.getByRole('heading', { level: 1, name: 'Client Services' })).toBeVisible();
    const videos = screen.getAllByLabelText(/^Sample clip:/);
    expect(videos.map((v) => [v.tagName, v.getAttribute('aria-label')])).toEqual([
      ['VIDEO', 'Sample clip: Stream highlight'],
      ['VIDEO', 'Sample clip: Meme edit'],
    ]);
    for (const video of videos as HTMLVideoElement[]) {
      // Muted, looped and inline (a phone would otherwise open it full screen), with a poster of its own.
      expect([video.muted, video.loop, video.playsInline, video.autoplay]).toEqual([true, true, true, true]);
      expect(video.getAttribute('src')).toMatch(/\/sample-[a-z-]+\.mp4$/);
      expect(video.getAttribute('poster')).toMatch(/\/sample-[a-z-]+\.jpg$/);
    }
    for (const heading of [
      'Pay-Per-View Campaigns',
      'Partner With Us',
      'Why CLIP IT',
      'Proven Results',
      'Elite Salaried Team',
      'End-to-End Growth',
    ]) {
      expect(screen.getByRole('heading', { name: heading })).toBeVisible();
    }
    expect(screen.getByText(/CPM-based/)).toBeVisible();
    const ctas = screen.getAllByRole('link');
    expect(ctas.map((a) => a.textContent)).toEqual(['Start a Campaign', 'Become a Partner', 'Get Started']);
    for (const a of ctas) expect(a).toHaveAttribute('href', '/discover');
  });
});
