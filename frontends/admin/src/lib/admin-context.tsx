import { createContext, useContext, type ReactNode } from 'react';

/** What every part of the unlocked admin area needs: calls with the token, and a way to end the session. */
export interface AdminSession {
  /** An admin call with the bearer token; a 401 answer ends the session (the gate comes back) and still rejects. */
  request: <T>(method: string, url: string, body?: unknown) => Promise<T>;
  /** Ends the session on the admin's request (the Lock button): no message on the gate. */
  lock: () => void;
}

const AdminSessionContext = createContext<AdminSession | null>(null);

export function AdminSessionProvider({ value, children }: { value: AdminSession; children: ReactNode }) {
  return <AdminSessionContext.Provider value={value}>{children}</AdminSessionContext.Provider>;
}

export function useAdminSession(): AdminSession {
  const session = useContext(AdminSessionContext);
  if (!session) throw new Error('useAdminSession() must be used inside the unlocked admin area.');
  return session;
}
