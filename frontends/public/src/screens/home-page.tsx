import { abbreviateNumber, Button, Card, Skeleton, useToast, VisuallyHidden } from '@clipit/ui';
import { apiJson, type ApiAnswer } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { siteLinks } from '@clipit/frontend-contracts';
import { Link, useNavigate } from '@clipit/router';
import { ClipCarousel } from '../components/clip-carousel.js';
import type { FeedPage } from '../lib/feed-data.js';
import { displayNameOf, handleOf, initialOf } from '../lib/people.js';
import '../styles/home.css';

/** Spec 01 §9: the carousel previews 5 clips. */
export const PREVIEW_CLIPS = 5;
/** Spec 01 §9: 5 skeleton cards while Top Streamers loads (and 5 streamers shown, so nothing shifts). */
export const TOP_STREAMERS_SHOWN = 5;
const CLIPPER_SKELETONS = 4;

// The same path as the feed with its own limit in the key: the add-clip dialog's invalidation of
// ['/api/feed/clips'] reaches this preview too (see lib/feed-data.ts).
export const previewQueryKey = ['/api/feed/clips', { limit: PREVIEW_CLIPS }] as const;

/** Where Buy $CLIP Token goes: the header's Buy $CLIP link (CLIPIT_LINK_BUY of the shell's build). */
export const buyUrl = (): string => siteLinks().buy;

/** '1 follower', '12.4K followers'. */
const count = (n: number, word: string) => `${abbreviateNumber(n)} ${word}${n === 1 ? '' : 's'}`;

type FeaturedClipper = ApiAnswer<'/api/featured-clippers', 'get'>[number];
type TopStreamer = ApiAnswer<'/api/top-streamers', 'get'>[number];

/** The streamer multiplier as 'Nx', with only the decimals it needs: 1 → '1x', 1.5 → '1.5x', 1.25 → '1.25x'. */
export function formatMultiplier(value: number): string {
  return `${Number(value.toFixed(2))}x`;
}

function Avatar({ person, url, size }: { person: Parameters<typeof initialOf>[0]; url: string | null; size: number }) {
  return url ? (
    <img className="clipit-home-avatar" src={url} alt="" width={size} height={size} loading="lazy" decoding="async" />
  ) : (
    <span className="clipit-home-avatar" style={{ width: size, height: size }} aria-hidden="true">
      {initialOf(person)}
    </span>
  );
}

function Hero() {
  return (
    <section className="clipit-home-hero" aria-labelledby="home-title">
      <img className="clipit-home-hero__logo" src="/icon.png" alt="CLIP IT" width={72} height={72} decoding="async" />
      <h1 id="home-title">CLIP • SHARE • EARN</h1>
      <p className="clipit-home-hero__tagline">
        Cut the best moments from live streams and memes, share them on X, and earn $CLIP for every approved clip.
      </p>
      <div className="clipit-home-hero__actions">
        <a href={buyUrl()} target="_blank" rel="noopener noreferrer" className="clip-btn clip-btn--primary clip-btn--lg">
          Buy $CLIP Token
          <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
        </a>
        <Link to="/feed" className="clip-btn clip-btn--outline clip-btn--lg">
          ClipTok
        </Link>
      </div>
    </section>
  );
}

function LiveOnDemand() {
  const { toast } = useToast();
  const navigate = useNavigate();
  const preview = useQuery({
    queryKey: previewQueryKey,
    queryFn: () => apiJson<FeedPage>('GET', `/api/feed/clips?limit=${PREVIEW_CLIPS}`),
  });
  // Once per failure: `toast` changes with every toast shown, so it is read from an effect event.
  const announce = useEffectEvent((error: Error) =>
    toast({ title: 'Failed to fetch clips', description: error.message, variant: 'destructive' }),
  );
  const error = preview.error;
  useEffect(() => {
    if (error) announce(error);
  }, [error]);

  const clips = preview.data?.submissions.slice(0, PREVIEW_CLIPS) ?? [];
  let body;
  if (preview.isPending) {
    body = (
      <div className="clipit-carousel" aria-busy="true">
        <VisuallyHidden role="status">Loading clips</VisuallyHidden>
        <Skeleton className="clipit-carousel__stage" data-testid="carousel-skeleton" />
        <div className="clipit-carousel__below" />
      </div>
    );
  } else if (clips.length === 0) {
    body = (
      <div className="clipit-carousel">
        <div className="clipit-carousel__stage clipit-carousel__stage--empty">
          {preview.isError ? (
            <p>Clips could not be loaded right now.</p>
          ) : (
            <>
              <p className="clipit-carousel__empty-title">No clips yet</p>
              <p>Be the first: submit a clip and it will play here once approved.</p>
              <Link to="/submit" className="clip-btn clip-btn--primary clip-btn--md">
                Submit a Clip
              </Link>
            </>
          )}
        </div>
        <div className="clipit-carousel__below" />
      </div>
    );
  } else {
    body = <ClipCarousel clips={clips} label="Live on Demand clips" />;
  }

  return (
    <section className="clipit-home-section clipit-home-live" aria-labelledby="home-live">
      <div className="clipit-home-live__text">
        <h2 id="home-live">Live on Demand</h2>
        <p className="clipit-muted">The newest approved clips, playing now. Swipe or use the arrows to flip through them.</p>
        <div className="clipit-home-live__actions">
          <Link to="/feed" className="clip-btn clip-btn--primary clip-btn--md">
            Watch Full Video
          </Link>
          <Button variant="outline" onClick={() => void navigate('/feed')}>
            Scroll the Feed
          </Button>
        </div>
      </div>
      {body}
    </section>
  );
}

function ClipperCard({ clipper }: { clipper: FeaturedClipper }) {
  const name = displayNameOf(clipper) || 'Anonymous';
  return (
    <Link to={`/clipper/${clipper.userId}`} className="clipit-home-clipper" data-testid="clipper-card">
      <Avatar person={clipper} url={clipper.profileImageUrl} size={56} />
      <span className="clipit-home-clipper__name">{name}</span>
      <span className="clipit-home-clipper__handle">{handleOf(clipper) || '\u00a0'}</span>
      <span className="clipit-home-clipper__stats">
        <span>
          <strong>{abbreviateNumber(clipper.approvedClips)}</strong> clips
        </span>
        <span>
          <strong>{abbreviateNumber(clipper.totalViews)}</strong> views
        </span>
        <span>
          <strong>{clipper.clipPoints === undefined ? '—' : abbreviateNumber(clipper.clipPoints)}</strong> points
        </span>
      </span>
    </Link>
  );
}

function GoatedClippers() {
  const clippers = useQuery<FeaturedClipper[]>({ queryKey: ['/api/featured-clippers'] });
  let body;
  if (clippers.isPending) {
    body = (
      <ul className="clipit-home-clippers" aria-busy="true" aria-label="Loading clippers">
        {Array.from({ length: CLIPPER_SKELETONS }, (_, i) => (
          <li key={i}>
            <Skeleton className="clipit-home-clipper clipit-home-clipper--skeleton" data-testid="clipper-skeleton" />
          </li>
        ))}
      </ul>
    );
  } else if (clippers.isError) {
    body = <p className="clipit-home-empty">Failed to load clippers. Please try again.</p>;
  } else if (clippers.data.length === 0) {
    body = <p className="clipit-home-empty">No clippers yet. Approved clips put their clippers here.</p>;
  } else {
    body = (
      <ul className="clipit-home-clippers" aria-label="Featured clippers">
        {clippers.data.map((clipper) => (
          <li key={clipper.userId}>
            <ClipperCard clipper={clipper} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section className="clipit-home-section" aria-labelledby="home-clippers">
      <div className="clipit-home-section__head">
        <h2 id="home-clippers">Goated Clippers</h2>
        <Link to="/discover" className="clip-btn clip-btn--ghost clip-btn--sm">
          Discover Talent
        </Link>
      </div>
      {body}
    </section>
  );
}

function Prompt({ id, title, text, cta }: { id: string; title: string; text: string; cta: string }) {
  return (
    <Card className="clipit-home-prompt">
      <div>
        <h2 id={id}>{title}</h2>
        <p className="clipit-muted">{text}</p>
      </div>
      <Link to="/login" className="clip-btn clip-btn--primary clip-btn--lg">
        {cta}
      </Link>
    </Card>
  );
}

function StreamerRow({ streamer, rank }: { streamer: TopStreamer; rank: number }) {
  const name = displayNameOf(streamer) || 'Anonymous';
  return (
    <Link to={`/clipper/${streamer.id}`} className="clipit-home-streamer" data-testid="streamer-row">
      <span className="clipit-home-streamer__rank">#{rank}</span>
      <Avatar person={streamer} url={streamer.profileImageUrl} size={44} />
      <span className="clipit-home-streamer__who">
        <span className="clipit-home-streamer__name">{name}</span>
        <span className="clipit-home-streamer__meta">
          {count(streamer.followerCount, 'follower')} · {count(streamer.totalClips, 'clip')}
        </span>
      </span>
      <span className="clipit-home-streamer__multiplier">
        <VisuallyHidden>Multiplier </VisuallyHidden>
        {formatMultiplier(streamer.multiplier)}
      </span>
    </Link>
  );
}

function TopStreamers() {
  const streamers = useQuery<TopStreamer[]>({ queryKey: ['/api/top-streamers'] });
  let body;
  if (streamers.isPending) {
    body = (
      <ul className="clipit-home-streamers" aria-busy="true" aria-label="Loading streamers">
        {Array.from({ length: TOP_STREAMERS_SHOWN }, (_, i) => (
          <li key={i}>
            <Skeleton className="clipit-home-streamer clipit-home-streamer--skeleton" data-testid="streamer-skeleton" />
          </li>
        ))}
      </ul>
    );
  } else if (streamers.isError) {
    body = <p className="clipit-home-empty">Failed to load streamers. Please try again.</p>;
  } else if (streamers.data.length === 0) {
    body = <p className="clipit-home-empty">No streamers found</p>;
  } else {
    body = (
      <ol className="clipit-home-streamers" aria-label="Top streamers">
        {streamers.data.slice(0, TOP_STREAMERS_SHOWN).map((streamer, i) => (
          <li key={streamer.id}>
            <StreamerRow streamer={streamer} rank={i + 1} />
          </li>
        ))}
      </ol>
    );
  }
  return (
    <section className="clipit-home-section" aria-labelledby="home-streamers">
      <div className="clipit-home-section__head">
        <h2 id="home-streamers">Top Streamers</h2>
        <Link to="/discover?tab=streamers" className="clip-btn clip-btn--ghost clip-btn--sm">
          View All
        </Link>
      </div>
      {body}
    </section>
  );
}

const STEPS = [
  { title: 'Clip', text: 'Cut the best moment of a live stream or a meme into a short portrait clip with the CLIP IT watermark.' },
  { title: 'Share', text: 'Post it on X, tag the streamer, and submit the post with its video. Approved clips go into the feed.' },
  { title: 'Earn', text: 'Every approved clip earns points and $CLIP, paid weekly on Fridays to your Solana wallet.' },
];
const FLOW = ['Clips', 'Views', 'Growth', 'Fees', 'Rewards'];

function HowItWorks() {
  return (
    <section className="clipit-home-section" aria-labelledby="home-how">
      <div className="clipit-home-section__head">
        <h2 id="home-how">How It Works</h2>
        <Link to="/guide" className="clip-btn clip-btn--ghost clip-btn--sm">
          Read the Guide
        </Link>
      </div>
      <ol className="clipit-home-steps">
        {STEPS.map((step, i) => (
          <li key={step.title} className="clipit-home-step">
            <span className="clipit-home-step__number" aria-hidden="true">
              {i + 1}
            </span>
            <h3>{step.title}</h3>
            <p className="clipit-muted">{step.text}</p>
          </li>
        ))}
      </ol>
      <ol className="clipit-home-flow" aria-label="How value flows">
        {FLOW.map((stage) => (
          <li key={stage}>{stage}</li>
        ))}
      </ol>
    </section>
  );
}

/** /: the home page (spec 01 §2 Home). The hero needs no data, so it paints first; every list below it loads on its own. */
export default function HomePage() {
  return (
    <div className="clipit-home">
      <Hero />
      <LiveOnDemand />
      <GoatedClippers />
      <Prompt
        id="home-signup"
        title="Start Clipping Today"
        text="Sign up as a clipper, submit your first clip and start earning $CLIP."
        cta="Sign Up"
      />
      <TopStreamers />
      <Prompt
        id="home-streamer"
        title="Are You a Streamer?"
        text="Get clipped by the community, reward your clippers with a multiplier, and let your followers know when you go live."
        cta="Create Streamer Profile"
      />
      <section className="clipit-home-section clipit-home-vision" aria-labelledby="home-vision">
        <h2 id="home-vision">Our Vision</h2>
        <p>
          Every stream has moments worth millions of views. CLIP IT turns a community of clippers into the engine that finds them, shares
          them and grows the streamers behind them, and pays the clippers for every clip that lands.
        </p>
      </section>
      <HowItWorks />
    </div>
  );
}
