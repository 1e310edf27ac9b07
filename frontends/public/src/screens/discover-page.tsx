import { Button, Input, Select, Tabs, TabsContent, TabsList, TabsTrigger, VisuallyHidden } from '@clipit/ui';
import type { ApiAnswer } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Link, useSearchParams } from '@clipit/router';
import { CreatorCard, CreatorCardSkeleton, type Creator, type CreatorKind } from '../components/creator-card.js';
import { useProgressiveCount } from '../lib/progressive.js';
import '../styles/public.css';
import '../styles/discover.css';

/** Spec 01 §9: 8 skeleton cards while the list loads. */
export const SKELETON_CARDS = 8;

const SORTS = [
  { value: 'clips', label: 'Most Clips', key: (c: Creator) => c.totalClips },
  { value: 'views', label: 'Most Views', key: (c: Creator) => c.totalViews },
  { value: 'avg', label: 'Highest Avg Views', key: (c: Creator) => c.avgViews },
] as const;
type Sort = (typeof SORTS)[number]['value'];

const WORDS = {
  clippers: { tab: 'Clippers', singular: 'clipper' },
  streamers: { tab: 'Streamers', singular: 'streamer' },
} as const;

/** ?tab= is read case-insensitively; anything but streamers is the default, clippers. */
const tabOf = (value: string | null): CreatorKind => (value?.trim().toLowerCase() === 'streamers' ? 'streamers' : 'clippers');

function CreatorList({ kind, search, sort }: { kind: CreatorKind; search: string; sort: Sort }) {
  const query = useQuery<ApiAnswer<'/api/creators/{tab}', 'get'>>({ queryKey: ['/api/creators', kind] });
  const words = WORDS[kind];
  const headingId = useId();
  const needle = search.trim().replace(/^@/, '').toLowerCase();
  const byKey = SORTS.find((s) => s.value === sort)!.key;
  // Array.prototype.sort is stable: ties keep the gateway's order (most clips first).
  // The cards render from a deferred copy of the answer: React draws them in slices between frames
  // (a transition) instead of in the one task the answer arrives in; the skeleton stays meanwhile.
  const data = useDeferredValue(query.data);
  const drawing = query.isSuccess && data === undefined;
  const shown = (data ?? [])
    .filter((c) => !needle || (c.twitterUsername ?? '').toLowerCase().includes(needle))
    .sort((a, b) => byKey(b) - byKey(a));

  const rendered = useProgressiveCount(shown.length);
  // The count is of the cards shown, after the search: the heading describes the list under it.
  const heading = `Active ${words.tab}${query.isSuccess && !drawing ? ` (${shown.length})` : ''}`;
  let body;
  if (query.isPending || drawing) {
    body = (
      <div className="clipit-discover-grid" aria-busy="true">
        <VisuallyHidden role="status">Loading {words.tab.toLowerCase()}</VisuallyHidden>
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <CreatorCardSkeleton key={i} kind={kind} />
        ))}
      </div>
    );
  } else if (query.isError) {
    body = (
      <div className="clipit-discover-empty" role="alert">
        <p className="clipit-discover-empty__title">Failed to load {words.tab.toLowerCase()}. Please try again.</p>
        <p className="clipit-muted">{query.error.message}</p>
        <Button variant="outline" loading={query.isFetching} onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <div className="clipit-discover-empty">
        <p className="clipit-discover-empty__title">No {kind} found</p>
        {needle ? (
          <p className="clipit-muted">Try adjusting your search query</p>
        ) : (
          <>
            <p className="clipit-muted">Be the first to create a {words.singular} profile!</p>
            <Link to="/login" className="clip-btn clip-btn--primary clip-btn--md">
              Get Started
            </Link>
          </>
        )}
      </div>
    );
  } else {
    body = (
      <ul className="clipit-discover-grid" aria-label={words.tab}>
        {shown.slice(0, rendered).map((creator) => (
          <li key={creator.userId}>
            <CreatorCard creator={creator} kind={kind} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section className="clipit-discover-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="clipit-discover-heading">
        {heading}
      </h2>
      {body}
    </section>
  );
}

/** /discover: clippers and streamers, searched by handle and sorted on the client (spec 01 §2, ADR 0022). */
export default function DiscoverPage() {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('clips');
  const selectTab = (value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('tab', tabOf(value));
      return next;
    });

  return (
    <div className="clipit-page clipit-discover-page">
      <header className="clipit-discover-hero">
        <h1>Discover Creators</h1>
        <p className="clipit-muted">Find the clippers cutting the best moments and the streamers behind them.</p>
      </header>
      <Tabs value={tab} onValueChange={selectTab} className="clipit-discover-tabs">
        <div className="clipit-discover-controls">
          <TabsList aria-label="Creator type" className="clipit-discover-tablist">
            <TabsTrigger value="clippers">Clippers</TabsTrigger>
            <TabsTrigger value="streamers">Streamers</TabsTrigger>
          </TabsList>
          <Input
            type="search"
            label="Search by handle"
            hideLabel
            placeholder="Search by handle..."
            autoComplete="off"
            spellCheck={false}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            containerClassName="clipit-discover-search"
          />
          <Select
            label="Sort by"
            hideLabel
            value={sort}
            onChange={(e) => setSort(e.target.value as Sort)}
            options={SORTS.map(({ value, label }) => ({ value, label }))}
            containerClassName="clipit-discover-sort"
          />
        </div>
        {(['clippers', 'streamers'] as const).map((kind) => (
          <TabsContent key={kind} value={kind} className="clipit-discover-panel">
            <CreatorList kind={kind} search={search} sort={sort} />
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
