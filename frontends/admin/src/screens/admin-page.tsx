import type { AdminToken } from '@clipit/web-api';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AdminDashboard } from '../components/admin-dashboard.js';
import { PasswordGate } from '../components/password-gate.js';
import { adminJson, isUnauthorized, SESSION_EXPIRED_MESSAGE } from '../lib/admin-api.js';
import { AdminSessionProvider, type AdminSession } from '../lib/admin-context.js';
import { clearSession, msUntilExpiry, readSession, writeSession, type StoredSession } from '../lib/admin-session.js';
import { ADMIN_KEYS } from '../lib/queries.js';
import './admin.css';

/** setTimeout's longest delay; a later expiry is checked again when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface GateState {
  session: StoredSession | null;
  /** What the gate says when it comes back on its own (the session expired). */
  notice: string | undefined;
}

function initialState(): GateState {
  const { session, expired } = readSession();
  return { session, notice: expired ? SESSION_EXPIRED_MESSAGE : undefined };
}

/**
 * /admin (spec 02 §2.4, ADR 0020): the password gate, then the admin dashboard. The token (never the
 * password) is kept in sessionStorage; when its time is up or any admin call answers 401 it is dropped
 * and the gate comes back saying so.
 */
export default function AdminPage() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<GateState>(initialState);
  const { session } = state;
  // The token calls are made with now: a late 401 for a token already replaced ends nothing.
  const current = useRef<string | null>(session?.token ?? null);
  current.current = session?.token ?? null;

  const end = useCallback((notice: string | undefined) => {
    clearSession();
    current.current = null;
    setState({ session: null, notice });
  }, []);

  // Locked: nothing of the admin lists stays in memory (they are fetched again after the next unlock).
  useEffect(() => {
    if (session) return;
    for (const queryKey of ADMIN_KEYS) queryClient.removeQueries({ queryKey });
  }, [session, queryClient]);

  // Unlocked: the gate comes back by itself when the token's time is up.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!session) return;
    const left = msUntilExpiry(session);
    if (left <= 0) {
      end(SESSION_EXPIRED_MESSAGE);
      return;
    }
    const timer = setTimeout(() => setTick((t) => t + 1), Math.min(left, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [session, end, tick]);

  const value = useMemo<AdminSession | null>(() => {
    if (!session) return null;
    const { token } = session;
    return {
      request: async <T,>(method: string, url: string, body?: unknown) => {
        try {
          return await adminJson<T>(token, method, url, body);
        } catch (error) {
          if (isUnauthorized(error) && current.current === token) end(SESSION_EXPIRED_MESSAGE);
          throw error;
        }
      },
      lock: () => end(undefined),
    };
  }, [session, end]);

  const unlocked = useCallback((answer: AdminToken) => {
    const stored = writeSession(answer);
    current.current = stored.token;
    setState({ session: stored, notice: undefined });
  }, []);

  if (!value) return <PasswordGate notice={state.notice} onUnlocked={unlocked} />;
  return (
    <AdminSessionProvider value={value}>
      <AdminDashboard />
    </AdminSessionProvider>
  );
}
