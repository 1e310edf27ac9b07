// Live notifications (spec 01 §4, §7, §8): on the first load the browser is asked for permission if
// it has not been asked yet; only while it is granted, each streamer who went live gets one browser
// notification. The news comes from the live stream (server-sent events, GET /api/live/stream) while
// it is open, and from the spec's 30 s poll of GET /api/followers/live while it is not (a browser
// without EventSource, a proxy that cuts streams, the gateway restarting). Failures are quiet.
import { apiJson } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  applyLiveMessage,
  diffLive,
  LIVE_PATH,
  LIVE_POLL_MS,
  LIVE_STREAM_PATH,
  liveNotification,
  parseLiveStreamers,
  parseLiveStreamMessage,
  type LiveStreamer,
  type LiveStreamMessage,
} from './live-notifications.js';

type Permission = NotificationPermission | 'unsupported';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

// Asked once per page load (StrictMode runs effects twice; the router can remount the frame).
let asked = false;

function useNotificationPermission(): Permission {
  const [permission, setPermission] = useState<Permission>(() => (supported() ? Notification.permission : 'unsupported'));

  useEffect(() => {
    if (!supported()) return;
    let active = true;
    const update = () => {
      if (active) setPermission(Notification.permission);
    };
    if (Notification.permission === 'default' && !asked) {
      asked = true;
      Notification.requestPermission().then(update, update);
    }
    // Permission changed from the browser's own UI (site settings) while the page is open.
    let status: PermissionStatus | undefined;
    navigator.permissions
      ?.query({ name: 'notifications' })
      .then((s) => {
        status = s;
        s.addEventListener('change', update);
      })
      .catch(() => undefined);
    return () => {
      active = false;
      status?.removeEventListener('change', update);
    };
  }, []);

  return permission;
}

/**
 * Holds the live stream open while `enabled`, handing each message to `onMessage`; true while it is
 * open. The browser reconnects by itself (with Last-Event-ID) after a dropped connection; a stream the
 * server refused (signed out, too many tabs) is tried again after a poll interval.
 */
function useLiveStream(enabled: boolean, onMessage: (message: LiveStreamMessage) => void): boolean {
  const [open, setOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const handler = useRef(onMessage);
  handler.current = onMessage;

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(LIVE_STREAM_PATH, { withCredentials: true });
    let retry: ReturnType<typeof setTimeout> | undefined;
    for (const type of ['snapshot', 'live', 'offline']) {
      source.addEventListener(type, (event) => {
        const message = parseLiveStreamMessage(type, (event as MessageEvent<string>).data);
        if (message) handler.current(message);
      });
    }
    source.onopen = () => setOpen(true);
    source.onerror = () => {
      setOpen(false);
      if (source.readyState === EventSource.CLOSED) retry = setTimeout(() => setAttempt((n) => n + 1), LIVE_POLL_MS);
    };
    return () => {
      clearTimeout(retry);
      source.close();
      setOpen(false);
    };
  }, [enabled, attempt]);

  return open;
}

async function fetchLive(): Promise<LiveStreamer[]> {
  const list = parseLiveStreamers(await apiJson<unknown>('GET', LIVE_PATH));
  // An answer that is not a list keeps the previous one (and so notifies nobody).
  if (!list) throw new Error(`${LIVE_PATH} did not answer a list`);
  return list;
}

function show(streamer: LiveStreamer, navigate: (path: string) => void): void {
  const { title, options, path } = liveNotification(streamer);
  try {
    const notification = new Notification(title, options);
    notification.onclick = () => {
      window.focus();
      navigate(path);
      notification.close();
    };
  } catch (error) {
    // Some browsers (Chrome on Android) only show notifications through a service worker.
    console.warn('could not show a live notification', error);
  }
}

export function LiveNotifications({ navigate }: { navigate: (path: string) => void }) {
  const granted = useNotificationPermission() === 'granted';
  // The live ids announced so far, shared by the stream and the poll, so switching between them never announces twice.
  const known = useRef<ReadonlySet<string>>(new Set());
  const streaming = useLiveStream(granted, (message) => {
    const { notify, live } = applyLiveMessage(known.current, message);
    known.current = live;
    for (const streamer of notify) show(streamer, navigate);
  });
  const { data } = useQuery({
    queryKey: [LIVE_PATH],
    queryFn: fetchLive,
    // Not polled until notifications are allowed, nor while the stream is open; failures stay quiet (the client never retries).
    enabled: granted && !streaming,
    refetchInterval: LIVE_POLL_MS,
    // Going live matters most while the tab is in the background.
    refetchIntervalInBackground: true,
  });

  useEffect(() => {
    if (!granted || !data) return;
    const { notify, live } = diffLive(known.current, data);
    known.current = live;
    for (const streamer of notify) show(streamer, navigate);
  }, [data, granted, navigate]);

  return null;
}
