import { WALLET_CHANGE_HOLD_HOURS, WALLET_CHANGE_MESSAGES, WALLET_MESSAGES, walletProblem } from '@clipit/field-rules';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  Input,
  Skeleton,
  useToast,
} from '@clipit/ui';
import {
  apiJson,
  currentUserKey,
  HttpError,
  useXSignInAvailability,
  X_SIGN_IN_PATHS,
  type ApiAnswer,
  type ApiRequestBody,
  type CurrentUser,
} from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { dashboardKey } from '../lib/dashboard-data.js';
import { fullNavigation } from '../lib/navigation.js';

// The account's own safety (ADR 0032): its payout wallet, guarded; its sessions; its e-mail address confirmed.

type ActiveSessions = ApiAnswer<'/api/user/sessions', 'get'>;
type WalletChange = ApiRequestBody<'/api/user/profile', 'patch'>;
export const sessionsKey = ['/api/user/sessions'] as const;

/** The text a refused call answered (the gateway's plain-text message), else the error's own. */
const problemText = (error: Error): string => (error instanceof HttpError ? error.text : error.message);

/**
 * The payout wallet: shown, and changed with the current password (or, for an account made with X, a fresh
 * sign-in with X). The first wallet needs neither.
 */
export function WalletCard({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const { available: xAvailable } = useXSignInAvailability();
  const [wallet, setWallet] = useState('');
  const [password, setPassword] = useState('');
  const [walletError, setWalletError] = useState<string | undefined>();
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [needsXSignIn, setNeedsXSignIn] = useState(false);
  const replacing = user.walletAddress !== null;

  const save = useMutation({
    mutationFn: (body: WalletChange) => apiJson<CurrentUser>('PATCH', '/api/user/profile', body),
    onSuccess: async (saved) => {
      toast(
        replacing
          ? { title: 'Wallet Updated', description: WALLET_CHANGE_MESSAGES.changed, variant: 'success' }
          : { title: 'Wallet Added!', description: 'Your wallet address has been saved.', variant: 'success' },
      );
      setWallet('');
      setPassword('');
      queryClient.setQueryData(currentUserKey, saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserKey }),
        queryClient.invalidateQueries({ queryKey: dashboardKey }),
      ]);
    },
    onError: (error: Error) => {
      const text = problemText(error);
      // A missing proof is shown where it is given: X's at a sign-in button, the password's at its field.
      if (error instanceof HttpError && error.status === 403 && text === WALLET_CHANGE_MESSAGES.xSignInRequired) setNeedsXSignIn(true);
      else if (error instanceof HttpError && error.status === 403) setPasswordError(text);
      else toast({ title: 'Save Failed', description: text || 'Failed to save wallet address', variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = walletProblem(wallet, WALLET_MESSAGES.required);
    setWalletError(problem);
    setPasswordError(undefined);
    if (problem || save.isPending) return;
    save.mutate({ walletAddress: wallet.trim(), ...(replacing && password ? { currentPassword: password } : {}) });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Payout Wallet</CardTitle>
        <CardDescription>Your $CLIP rewards are paid to this Solana wallet every Friday.</CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        <p className="clipit-dash-wallet">
          <span className="clipit-dash-muted">Current wallet</span>{' '}
          {user.walletAddress ? <code>{user.walletAddress}</code> : <span>No wallet yet</span>}
        </p>
        <form className="clipit-dash-form" onSubmit={submit} noValidate aria-label={replacing ? 'Change wallet' : 'Add wallet'}>
          <Input
            label={replacing ? 'New Solana Wallet Address' : 'Solana Wallet Address'}
            name="walletAddress"
            autoComplete="off"
            spellCheck={false}
            value={wallet}
            error={walletError}
            onChange={(event) => {
              setWallet(event.target.value);
              setWalletError(undefined);
            }}
          />
          {replacing ? (
            <Input
              label="Current Password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              value={password}
              error={passwordError}
              description={`Accounts made with X sign in with X again instead. We email you about the change, and payouts to a new wallet start ${WALLET_CHANGE_HOLD_HOURS} hours after it.`}
              onChange={(event) => {
                setPassword(event.target.value);
                setPasswordError(undefined);
              }}
            />
          ) : null}
          {needsXSignIn ? (
            <div className="clipit-dash-note" role="alert">
              <p>{WALLET_CHANGE_MESSAGES.xSignInRequired}.</p>
              {xAvailable ? (
                <Button type="button" variant="secondary" onClick={() => fullNavigation.assign(X_SIGN_IN_PATHS.connect)}>
                  Sign in with X again
                </Button>
              ) : null}
            </div>
          ) : null}
          <div className="clipit-dash-actions">
            <Button type="submit" loading={save.isPending} loadingText="Saving...">
              {replacing ? 'Change Wallet' : 'Save Wallet Address'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** The account's active sessions (device, network, last use), with "sign out everywhere else". */
export function SessionsCard() {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const sessions = useQuery<ActiveSessions>({ queryKey: sessionsKey });
  const others = (sessions.data?.sessions ?? []).filter((s) => !s.current).length;
  const signOutOthers = useMutation({
    mutationFn: () => apiJson<{ endedSessions: number }>('POST', '/api/user/sessions/sign-out-others'),
    onSuccess: async ({ endedSessions }) => {
      toast({
        title: 'Signed out everywhere else',
        description: `${endedSessions} other ${endedSessions === 1 ? 'session was' : 'sessions were'} signed out.`,
        variant: 'success',
      });
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
    onError: (error: Error) => toast({ title: 'Sign-out failed', description: problemText(error), variant: 'destructive' }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Where You're Signed In</CardTitle>
        <CardDescription>If you don't recognise a session, sign out everywhere else and reset your password.</CardDescription>
      </CardHeader>
      <CardContent className="clipit-dash-stack">
        {sessions.isPending ? (
          <Skeleton className="clipit-dash-skeleton-row" />
        ) : sessions.isError ? (
          <p role="alert">Could not load your sessions: {problemText(sessions.error)}</p>
        ) : (
          <ul className="clipit-dash-list" aria-label="Active sessions">
            {sessions.data.sessions.map((s) => (
              <li key={s.id} className="clipit-dash-list__item">
                <div className="clipit-dash-list__main">
                  <p className="clipit-dash-list__title">
                    {s.device} {s.current ? <Badge variant="success">This device</Badge> : null}
                  </p>
                  <p className="clipit-dash-muted">
                    {[
                      s.address ? `From ${s.address}` : null,
                      s.method === 'x' ? 'Signed in with X' : s.method === 'password' ? 'Signed in with password' : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  <p className="clipit-dash-muted">
                    Signed in {formatDate(s.createdAt)} · Last active {formatDate(s.lastSeenAt)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="clipit-dash-actions">
          <Button
            variant="secondary"
            disabled={others === 0}
            loading={signOutOthers.isPending}
            loadingText="Signing out..."
            onClick={() => signOutOthers.mutate()}
          >
            Sign Out Everywhere Else
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** Asks a person whose e-mail address is not confirmed to confirm it (reset links go only to a confirmed one). */
export function VerifyEmailBanner({ user }: { user: CurrentUser }) {
  const { toast } = useToast();
  const send = useMutation({
    mutationFn: () => apiJson<ApiAnswer<'/api/auth/verify-email/send', 'post'>>('POST', '/api/auth/verify-email/send'),
    onSuccess: (answer) =>
      toast({ title: answer.sent ? 'Link sent' : 'Already confirmed', description: answer.message, variant: 'success' }),
    onError: (error: Error) => toast({ title: 'Could not send the link', description: problemText(error), variant: 'destructive' }),
  });
  if (!user.email || user.emailVerified) return null;
  return (
    <div className="clipit-dash-note clipit-dash-verify" role="region" aria-label="Confirm your email address">
      <div className="clipit-dash-stack clipit-dash-stack--tight">
        <strong>Confirm your email address</strong>
        <span>We sent a confirmation link to {user.email}. Until it is confirmed, we cannot send you a link to reset your password.</span>
      </div>
      <Button variant="secondary" size="sm" loading={send.isPending} loadingText="Sending..." onClick={() => send.mutate()}>
        Send a New Link
      </Button>
    </div>
  );
}
