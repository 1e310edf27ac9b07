// Live notifications (spec 01 §4, §7, §8): on the first load the browser is asked for permission if
// it has not been asked yet; only while it is granted, GET /api/followers/live is polled every 30 s and
// each streamer who went live gets one browser notification. A failing poll is quiet: no toast, no UI.
import { apiJson } from '@clipit/web-api';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { diffLive, LIVE_PATH, LIVE_POLL_MS, liveNotification, parseLiveStreamers, type LiveStreamer } from './live-notifications.js';

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
  const { data } = useQuery({
    queryKey: [LIVE_PATH],
    queryFn: fetchLive,
    // Not polled at all until notifications are allowed; failures stay quiet (the client never retries).
    enabled: granted,
    refetchInterval: LIVE_POLL_MS,
    // Going live matters most while the tab is in the background.
    refetchIntervalInBackground: true,
  });
  const known = useRef<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (!granted || !data) return;
    const { notify, live } = diffLive(known.current, data);
    known.current = live;
    for (const streamer of notify) show(streamer, navigate);
  }, [data, granted, navigate]);

  return null;
}
