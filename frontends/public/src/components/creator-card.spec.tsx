import { describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { CreatorCard, CreatorCardSkeleton, type Creator } from './creator-card.js';

const creator = (extra: Partial<Creator> = {}): Creator => ({
  userId: 'u-9',
  twitterUsername: 'someone',
  profileImageUrl: null,
  verified: false,
  followers: 1_250_000,
  totalClips: 1000,
  totalViews: 999,
  avgViews: 12.6,
  clipPoints: 3,
  ...extra,
});

describe('CreatorCard', () => {
  it('abbreviates the figures and shows the initial when there is no picture', () => {
    fakeGateway();
    renderScreen(<CreatorCard creator={creator()} kind="clippers" />);
    const card = screen.getByTestId('creator-card');
    expect(within(card).getByRole('link', { name: '@someone' })).toHaveAttribute('href', '/clipper/u-9');
    expect(card.querySelector('.clipit-discover-avatar')).toHaveTextContent('S');
    expect(
      within(card)
        .getAllByRole('definition')
        .map((dd) => dd.textContent),
    ).toEqual(['1.3M', '1.0K', '999', '13', '3']);
  });

  it('says Anonymous without a handle', () => {
    fakeGateway();
    renderScreen(<CreatorCard creator={creator({ twitterUsername: null })} kind="clippers" />);
    expect(screen.getByRole('link', { name: 'Anonymous' })).toHaveAttribute('href', '/clipper/u-9');
  });

  it('draws its skeleton with the same figures as the card of that kind', () => {
    fakeGateway();
    renderScreen(
      <>
        <CreatorCardSkeleton kind="clippers" />
        <CreatorCardSkeleton kind="streamers" />
        <CreatorCard creator={creator()} kind="streamers" />
      </>,
    );
    const [clippers, streamers] = screen.getAllByTestId('creator-skeleton') as [HTMLElement, HTMLElement];
    expect(clippers).toHaveAttribute('aria-hidden', 'true');
    expect(Array.from(clippers.querySelectorAll('dt'), (dt) => dt.textContent)).toEqual([
      'Followers',
      'Clips',
      'Views',
      'Avg Views',
      'Clip Points',
    ]);
    expect(Array.from(streamers.querySelectorAll('dt'), (dt) => dt.textContent)).toEqual(['Followers', 'Clips', 'Views', 'Avg Views']);
    expect(screen.getByTestId('creator-card').querySelectorAll('dd')).toHaveLength(4);
    expect(within(screen.getByTestId('creator-card')).getByRole('button', { name: 'Follow' })).toBeInTheDocument();
  });
});
