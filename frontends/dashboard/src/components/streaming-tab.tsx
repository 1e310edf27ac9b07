import { checkStreamTime } from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, formatDate, Input, useToast } from '@clipit/ui';
import { apiJson, type CurrentUser } from '@clipit/web-api';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  notifiedText,
  refreshAfterStreamChange,
  streamTimeOf,
  toLocalInputValue,
  type GoLiveResult,
  type StreamState,
  type StreamTimeRequest,
} from '../lib/streamer-data.js';

const NOT_A_TIME = 'Enter a date and time, or clear the field to remove your next stream time';

/** Every call that changes the stream state shares this key: while one runs, every button of them waits. */
const STREAM_STATE_CALL = ['stream-state'] as const;
const useStreamCallRunning = () => useIsMutating({ mutationKey: STREAM_STATE_CALL }) > 0;

/**
 * The next stream time (spec 02 §2.3, §2.6, §5, §8): sent as an ISO string, null when the field is empty.
 * The streaming tab and the streamer's profile tab both show it.
 */
export function StreamTimeCard({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(() => toLocalInputValue(user.nextStreamTime));
  const [error, setError] = useState<string | undefined>();
  const busy = useStreamCallRunning();

  const streamTime = useMutation({
    mutationKey: STREAM_STATE_CALL,
    mutationFn: (body: StreamTimeRequest) => apiJson<StreamState>('PATCH', '/api/users/stream-time', body),
    onSuccess: async (state) => {
      toast({ title: 'Stream time updated!', variant: 'success' });
      setValue(toLocalInputValue(state.nextStreamTime));
      await refreshAfterStreamChange(queryClient, user.id, state);
    },
    onError: (err: Error) => toast({ title: 'Error', description: `Failed to update stream time: ${err.message}`, variant: 'destructive' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const sent = streamTimeOf(value);
    if (sent === undefined) {
      setError(NOT_A_TIME);
      return;
    }
    // The rule the gateway and the social service apply (libs/field-rules): in the future, within a year.
    const checked = checkStreamTime(sent);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    streamTime.mutate({ streamTime: sent });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Next Stream Time</CardTitle>
        <CardDescription>
          {user.nextStreamTime ? (
            <>
              Scheduled for <time dateTime={user.nextStreamTime}>{formatDate(user.nextStreamTime)}</time>
            </>
          ) : (
            'No stream scheduled. Let your followers know when you go live next.'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="clipit-dash-form" onSubmit={submit} noValidate>
          <Input
            label="Next Stream Time"
            name="nextStreamTime"
            type="datetime-local"
            value={value}
            error={error}
            description="Your local time. Leave empty to clear it."
            onChange={(event) => {
              setValue(event.target.value);
              setError(undefined);
            }}
          />
          <div className="clipit-dash-actions">
            <Button type="submit" disabled={busy}>
              {streamTime.isPending ? 'Updating...' : 'Update Stream Time'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** Go Live / Go Offline (spec 02 §2.3, §4, §8). */
function LiveStatusCard({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const isLive = user.isLive === 'true';
  const busy = useStreamCallRunning();

  const goLive = useMutation({
    mutationKey: STREAM_STATE_CALL,
    mutationFn: () => apiJson<GoLiveResult>('POST', '/api/users/go-live'),
    onSuccess: async (result) => {
      toast({ title: "You're now live!", description: notifiedText(result.notifiedFollowers), variant: 'success' });
      await refreshAfterStreamChange(queryClient, user.id, result);
    },
    onError: (err: Error) => toast({ title: 'Failed to go live', description: err.message, variant: 'destructive' }),
  });
  const goOffline = useMutation({
    mutationKey: STREAM_STATE_CALL,
    mutationFn: () => apiJson<StreamState>('POST', '/api/users/go-offline'),
    onSuccess: async (state) => {
      toast({ title: "You're now offline", description: 'Your live status has been updated.', variant: 'success' });
      await refreshAfterStreamChange(queryClient, user.id, state);
    },
    onError: (err: Error) => toast({ title: 'Failed to go offline', description: err.message, variant: 'destructive' }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Live Status</CardTitle>
        <CardDescription>
          {isLive ? 'You are live. Go offline when your stream ends.' : 'Going live notifies your followers.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        <p className="clipit-dash-live-row">
          <span>Status:</span>
          {isLive ? <Badge variant="live">Live</Badge> : <Badge variant="secondary">Offline</Badge>}
        </p>
        <div className="clipit-dash-actions">
          {isLive ? (
            <Button variant="destructive" disabled={busy} onClick={() => goOffline.mutate()}>
              {goOffline.isPending ? 'Going offline...' : 'Go Offline'}
            </Button>
          ) : (
            <Button disabled={busy} onClick={() => goLive.mutate()}>
              {goLive.isPending ? 'Going live...' : 'Go Live'}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * The streaming tab (spec 02 §2.3, §4, §5, §8): the next stream time and Go Live / Go Offline. Every button
 * is disabled while any of these calls runs.
 */
export function StreamingTab({ user }: { user: CurrentUser }) {
  return (
    <div className="clipit-dash-grid clipit-dash-grid--2">
      <StreamTimeCard user={user} />
      <LiveStatusCard user={user} />
    </div>
  );
}
