import type { ViewHistoryProps } from '@clipit/frontend-contracts';
import { abbreviateNumber, Skeleton, useNearViewport, VisuallyHidden } from '@clipit/ui';
import { apiJson } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import {
  CHART,
  chartGeometry,
  dayLabel,
  HISTORY_FAILED,
  NO_VIEWS_YET,
  toViewHistory,
  updatedText,
  verificationText,
  viewHistoryKey,
  viewHistoryPath,
  viewHistoryText,
  type MetricsHistoryAnswer,
  type ViewHistory as History,
  type ViewPoint,
} from '../lib/view-history.js';
import '../styles/view-history.css';

/**
 * The small chart of a post's views over time: an inline SVG (line and area, the last point marked),
 * named by its text alternative, with the points as a table for screen readers.
 */
export function ViewHistoryChart({ points }: { points: readonly ViewPoint[] }) {
  const titleId = useId();
  const geometry = chartGeometry(points);
  if (!geometry) return <p className="clipit-view-history__note">{NO_VIEWS_YET}</p>;
  const text = viewHistoryText(points);
  return (
    <figure className="clipit-view-history__figure">
      <svg
        className="clipit-view-history__chart"
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-labelledby={titleId}
        data-testid="view-history-chart"
      >
        <title id={titleId}>{text}</title>
        <path className="clipit-view-history__area" d={geometry.area} />
        <path className="clipit-view-history__line" d={geometry.line} />
        <circle className="clipit-view-history__dot" cx={geometry.last.x} cy={geometry.last.y} r={2} />
      </svg>
      <VisuallyHidden>
        <table>
          <caption>Views by day</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.at.toISOString()}>
                <td>
                  <time dateTime={p.at.toISOString()}>{dayLabel(p.at)}</time>
                </td>
                <td>{abbreviateNumber(p.views)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}

function Details({ history }: { history: History }) {
  return (
    <p className="clipit-view-history__details">
      <span>{updatedText(history.lastFetchedAt)}</span>
      <span className={history.verified ? 'clipit-view-history__verified' : 'clipit-view-history__unverified'}>
        {verificationText(history)}
      </span>
    </p>
  );
}

/**
 * A submission's view history, for its owner (GET /api/submissions/{id}/metrics-history): asked once the
 * panel is near the screen, a skeleton meanwhile, a quiet line if it fails. The default export is what
 * the dashboard loads from this remote (`public/ViewHistory`) and the owner's profile loads lazily.
 */
/** `details`: also say when the metrics were last fetched and whether the post is verified (the clipper's dashboard). */
export default function ViewHistory({ submissionId, details = false }: ViewHistoryProps) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  const query = useQuery({
    queryKey: viewHistoryKey(submissionId),
    queryFn: () => apiJson<MetricsHistoryAnswer>('GET', viewHistoryPath(submissionId)),
    select: toViewHistory,
    enabled: near,
    retry: false,
  });
  let body;
  if (query.isError) body = <p className="clipit-view-history__note">{HISTORY_FAILED}</p>;
  else if (!query.data) {
    body = (
      <div aria-busy="true" data-testid="view-history-loading">
        <VisuallyHidden role="status">Loading view history</VisuallyHidden>
        <Skeleton className="clipit-view-history__skeleton" />
      </div>
    );
  } else {
    body = (
      <>
        <ViewHistoryChart points={query.data.points} />
        {details ? <Details history={query.data} /> : null}
      </>
    );
  }
  return (
    <div ref={box} className="clipit-view-history">
      {body}
    </div>
  );
}
