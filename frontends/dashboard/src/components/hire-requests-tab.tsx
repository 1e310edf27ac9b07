import { Badge, Button, formatDate, Textarea, useToast } from '@clipit/ui';
import { apiJson, type HireRequest, type HireRequestsPage, type RespondToHireRequest } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  contactLabel,
  HIRE_STATUS,
  hireBudgetText,
  hiresKey,
  hiringProfileKey,
  pendingHiresKey,
  serverText,
  urgencyLabel,
} from '../lib/campaigns-data.js';
import { ListError, ListSkeleton } from './tagged-videos-tab.js';

/** The most a note to the client may hold (the gateway's limit). */
const NOTES_MAX = 1000;

type Action = 'accept' | 'decline' | 'complete';
const ACTIONS: Record<Action, { done: string; failed: string }> = {
  accept: { done: 'Hire request accepted', failed: 'Failed to accept hire request' },
  decline: { done: 'Hire request declined', failed: 'Failed to decline hire request' },
  complete: { done: 'Hire marked completed', failed: 'Failed to complete hire request' },
};

/** The pending count on the Hire Requests tab (its `total`); nothing while it loads or when it failed. */
export function usePendingHireCount(): number | undefined {
  const query = useQuery<HireRequestsPage>({ queryKey: pendingHiresKey });
  return query.data?.total;
}

function HireItem({ hire, userId }: { hire: HireRequest; userId: string }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState('');
  const status = HIRE_STATUS[hire.status];

  const respond = useMutation({
    mutationFn: (action: Action) => {
      const trimmed = notes.trim();
      const body: RespondToHireRequest = trimmed === '' ? {} : { clipperNotes: trimmed };
      return apiJson<HireRequest>('POST', `/api/hires/${encodeURIComponent(hire.id)}/${action}`, body);
    },
    onSuccess: async (_answer, action) => {
      toast({ title: ACTIONS[action].done, description: `${hire.clientName}'s request`, variant: 'success' });
      setNotes('');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: hiresKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: pendingHiresKey, exact: true }),
        // A completed hire counts in the profile's total hires.
        action === 'complete' ? queryClient.invalidateQueries({ queryKey: hiringProfileKey(userId) }) : undefined,
      ]);
    },
    onError: (error: Error, action) =>
      toast({ title: ACTIONS[action].failed, description: serverText(error, 'Please try again.'), variant: 'destructive' }),
  });

  const answerable = hire.status === 'pending' || hire.status === 'accepted';
  return (
    <li className="clipit-dash-list__item clipit-dash-hire">
      <div className="clipit-dash-list__main">
        <div className="clipit-dash-item-head">
          <h3 className="clipit-dash-list__title">{hire.clientName}</h3>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <p>
          <a href={`mailto:${hire.clientEmail}`}>{hire.clientEmail}</a>
        </p>
        <dl className="clipit-dash-facts clipit-dash-facts--inline">
          <div>
            <dt>Contact</dt>
            <dd>
              {contactLabel(hire.preferredContact)}: {hire.contactInfo}
            </dd>
          </div>
          <div>
            <dt>Urgency</dt>
            <dd>{urgencyLabel(hire.urgency)}</dd>
          </div>
          <div>
            <dt>Budget</dt>
            <dd>{hireBudgetText(hire.budget)}</dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd>
              <time dateTime={hire.createdAt}>{formatDate(hire.createdAt)}</time>
            </dd>
          </div>
        </dl>
        <p className="clipit-dash-hire__description">{hire.projectDescription}</p>
        {hire.clipperNotes ? <p className="clipit-dash-muted">Your notes: {hire.clipperNotes}</p> : null}
        {answerable ? (
          <div className="clipit-dash-stack">
            <Textarea
              label="Notes for the client (optional)"
              name="clipperNotes"
              rows={2}
              maxLength={NOTES_MAX}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
            />
            <div className="clipit-dash-actions">
              {hire.status === 'pending' ? (
                <>
                  <Button
                    size="sm"
                    disabled={respond.isPending}
                    loading={respond.isPending && respond.variables === 'accept'}
                    onClick={() => respond.mutate('accept')}
                  >
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={respond.isPending}
                    loading={respond.isPending && respond.variables === 'decline'}
                    onClick={() => respond.mutate('decline')}
                  >
                    Decline
                  </Button>
                </>
              ) : (
                <Button size="sm" disabled={respond.isPending} loading={respond.isPending} onClick={() => respond.mutate('complete')}>
                  Mark Completed
                </Button>
              )}
            </div>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** The Hire Requests tab (ADR 0027): the requests the clipper received, newest first, answered here. */
export function HireRequestsTab({ userId }: { userId: string }) {
  const query = useQuery<HireRequestsPage>({ queryKey: hiresKey });
  if (query.isPending) return <ListSkeleton rows={2} className="clipit-dash-list" />;
  if (query.isError) return <ListError what="Hire requests" error={query.error} />;
  if (query.data.hires.length === 0) {
    return (
      <div className="clipit-dash-empty">
        <h2 className="clipit-dash-subtitle">No hire requests yet</h2>
        <p className="clipit-dash-muted">Brands and streamers can hire clippers at the Gold points tier. Their requests show up here.</p>
      </div>
    );
  }
  return (
    <section aria-labelledby="dash-hires-title">
      <h2 id="dash-hires-title" className="clipit-dash-subtitle">
        Hire Requests
      </h2>
      <ul className="clipit-dash-list" aria-label="Hire requests">
        {query.data.hires.map((hire) => (
          <HireItem key={hire.id} hire={hire} userId={userId} />
        ))}
      </ul>
    </section>
  );
}
