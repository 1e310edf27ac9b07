import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input } from '@clipit/ui';
import type { AdminToken } from '@clipit/web-api';
import { useId, useState, type FormEvent } from 'react';
import { gateFailureText, verifyPassword } from '../lib/admin-api.js';

export const PASSWORD_REQUIRED = 'Password is required';

export interface PasswordGateProps {
  /** Why the gate is shown again (the session expired), if it is. */
  notice?: string | undefined;
  onUnlocked: (answer: AdminToken) => void;
}

/**
 * The admin gate (spec 02 §2.4): 'Admin Access', 'Enter password to continue'. The password is held
 * only in this form's state while it is typed and sent once; what comes back is the token.
 */
export function PasswordGate({ notice, onUnlocked }: PasswordGateProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    if (password === '') {
      setError(PASSWORD_REQUIRED);
      return;
    }
    setError(undefined);
    setPending(true);
    try {
      const answer = await verifyPassword(password);
      setPassword('');
      onUnlocked(answer);
    } catch (failure) {
      setPending(false);
      setError(gateFailureText(failure));
    }
  };

  return (
    <div className="clipit-admin-page clipit-admin-page--narrow">
      <Card>
        <CardHeader>
          <CardTitle level={1}>Admin Access</CardTitle>
          <CardDescription>Enter password to continue</CardDescription>
        </CardHeader>
        <CardContent>
          {notice ? (
            <p className="clipit-admin-notice clipit-admin-notice--warning" role="status">
              {notice}
            </p>
          ) : null}
          <form className="clipit-admin-form" noValidate aria-label="Admin Access" onSubmit={(event) => void submit(event)}>
            <Input
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              passwordToggle
              value={password}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => {
                setPassword(event.target.value);
                setError(undefined);
              }}
            />
            <div aria-live="assertive" role="alert" className="clipit-admin-gate-error">
              {error ? (
                <p id={errorId} className="clip-field__error">
                  {error}
                </p>
              ) : null}
            </div>
            <Button type="submit" block size="lg" loading={pending} loadingText="Verifying...">
              Unlock
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
