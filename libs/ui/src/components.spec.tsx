import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { Badge } from './badge.js';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './card.js';
import { Skeleton } from './skeleton.js';
import { Spinner } from './spinner.js';
import { VisuallyHidden } from './visually-hidden.js';

describe('Skeleton', () => {
  it('is hidden from assistive technology and passes className and ref through', () => {
    const ref = createRef<HTMLDivElement>();
    const { container } = render(<Skeleton ref={ref} shape="circle" className="avatar" style={{ width: 48 }} />);
    const skeleton = container.firstElementChild!;
    expect(skeleton).toBe(ref.current);
    expect(skeleton).toHaveAttribute('aria-hidden', 'true');
    expect(skeleton).toHaveClass('clip-skeleton', 'clip-skeleton--circle', 'avatar');
    expect(skeleton).toHaveStyle({ width: '48px' });
  });
});

describe('Card', () => {
  it('composes header, title (h3 by default), description, content and footer', () => {
    render(
      <Card interactive className="streamer">
        <CardHeader>
          <CardTitle>Top Streamers</CardTitle>
          <CardDescription>Tagged most this week</CardDescription>
        </CardHeader>
        <CardContent>List</CardContent>
        <CardFooter>View All</CardFooter>
      </Card>,
    );
    const title = screen.getByRole('heading', { level: 3, name: 'Top Streamers' });
    expect(title).toHaveClass('clip-card__title');
    const card = title.closest('.clip-card');
    expect(card).toHaveClass('clip-card--interactive', 'streamer');
    expect(card).toHaveTextContent('Tagged most this weekListView All');
  });

  it('takes another heading level', () => {
    render(<CardTitle level={2}>Leaderboard Stats</CardTitle>);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Leaderboard Stats');
  });
});

describe('Badge', () => {
  it('carries its variant; live adds a decorative dot', () => {
    render(
      <>
        <Badge variant="success">approved</Badge>
        <Badge variant="live">Live</Badge>
        <Badge>Bronze</Badge>
      </>,
    );
    expect(screen.getByText('approved')).toHaveClass('clip-badge', 'clip-badge--success');
    expect(screen.getByText('Bronze')).toHaveClass('clip-badge--default');
    const live = screen.getByText('Live');
    expect(live).toHaveClass('clip-badge--live');
    expect(live.querySelector('.clip-badge__dot')).toHaveAttribute('aria-hidden', 'true');
    expect(live).toHaveTextContent(/^Live$/);
  });
});

describe('Spinner and VisuallyHidden', () => {
  it('a labelled spinner is an announced status; an unlabelled one is decorative', () => {
    const { container } = render(
      <>
        <Spinner label="Loading clips" />
        <Spinner size="sm" />
      </>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading clips');
    expect(container.querySelectorAll('[aria-hidden="true"].clip-spinner')).toHaveLength(1);
  });

  it('VisuallyHidden keeps text for screen readers only', () => {
    render(
      <button type="button">
        <span aria-hidden="true">♥</span>
        <VisuallyHidden>Like clip</VisuallyHidden>
      </button>,
    );
    expect(screen.getByRole('button', { name: 'Like clip' })).toBeInTheDocument();
    expect(screen.getByText('Like clip')).toHaveClass('clip-sr-only');
  });
});
