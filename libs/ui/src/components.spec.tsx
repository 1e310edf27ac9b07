import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { Badge } from './badge.js';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './card.js';
import { GuideChecks, type GuideCheckItem } from './guide-checks.js';
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

describe('GuideChecks', () => {
  const CHECKS: GuideCheckItem[] = [
    { rule: 'duration', verdict: 'pass', message: "20 seconds long: at least the guide's 15." },
    { rule: 'portrait', verdict: 'warning', message: 'The frame is 16:9: the guide asks for portrait 9:16.' },
    { rule: 'width', verdict: 'pass', message: '1080 px wide: at least 720.' },
    { rule: 'audio', verdict: 'warning', message: 'No sound: the video has no audio track.' },
    {
      rule: 'watermark',
      verdict: 'unsure',
      message: 'The picture changes too little to tell whether the top-right corner has a watermark.',
    },
  ];
  const rows = () =>
    within(screen.getByRole('list', { name: 'Guide checks' }))
      .getAllByRole('listitem')
      .map((row) => row.textContent);

  it('lists every check in the guide’s order, its verdict in words (the sign is decoration) before its message', () => {
    render(<GuideChecks checks={CHECKS} className="mine" />);
    expect(rows()).toEqual([
      "✓Pass: 20 seconds long: at least the guide's 15.",
      '!Warning: The frame is 16:9: the guide asks for portrait 9:16.',
      '✓Pass: 1080 px wide: at least 720.',
      '!Warning: No sound: the video has no audio track.',
      '?Unsure: The picture changes too little to tell whether the top-right corner has a watermark.',
    ]);
    const list = screen.getByRole('list', { name: 'Guide checks' });
    expect(list).toHaveClass('clip-guide-checks', 'mine');
    const audio = list.querySelector('[data-rule="audio"]')!;
    expect(audio).toHaveAttribute('data-verdict', 'warning');
    expect(audio).toHaveClass('clip-guide-check--warning');
    expect(audio.querySelector('.clip-guide-check__sign')).toHaveAttribute('aria-hidden', 'true');
  });

  it('warningsFirst: warnings, then unsure, then passes, each group in the guide’s order', () => {
    render(<GuideChecks checks={CHECKS} warningsFirst aria-label="Guide checks of Epic clutch" />);
    expect(
      within(screen.getByRole('list', { name: 'Guide checks of Epic clutch' }))
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('data-rule')),
    ).toEqual(['portrait', 'audio', 'watermark', 'duration', 'width']);
  });
});
