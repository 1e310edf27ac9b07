import { linkTokenFromHash, RESET_LINK_MESSAGES } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, useToast } from '@clipit/ui';
import { apiJson, type ConfirmPasswordResetRequest, type ConfirmPasswordResetResponse } from '@clipit/web-api';
import { Link, useLocation, useNavigate } from '@clipit/router';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { LinkProblem } from '../components/link-problem.js';
import '../styles/public.css';

/**
 * /reset-password#token=…: the page a reset link opens (ADR 0031). Nothing changes until the person
 * confirms here; then the password they typed when they asked is set, every session of the account ends,
 * and they log in with it. The token stays in the fragment, which the browser never sends to a server.
 */
export default function ResetPasswordPage() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const { toast } = useToast();
  const [token] = useState(() => linkTokenFromHash(hash));
  const [failure, setFailure] = useState<string | undefined>(token ? undefined : RESET_LINK_MESSAGES.invalid);
  const confirm = useMutation({
    mutationFn: (body: ConfirmPasswordResetRequest) =>
      apiJson<ConfirmPasswordResetResponse>('POST', '/api/auth/reset-password/confirm', body),
    onSuccess: () => {
      toast({ title: 'Password reset successfully!', description: 'You can now log in with your new password.', variant: 'success' });
      navigate('/login', { replace: true });
    },
    onError: (error: Error) => {
      setFailure(error.message);
      toast({ title: 'Failed to reset password', description: error.message, variant: 'destructive' });
    },
  });

  return (
    <div className="clipit-page clipit-page--narrow">
      <Card>
        <CardHeader>
          <CardTitle level={1}>Set Your New Password</CardTitle>
          <CardDescription>
            Confirm to replace your password with the new one you chose when you asked for this link. You will be signed out everywhere.
          </CardDescription>
        </CardHeader>
        {failure ? (
          <CardContent>
            <LinkProblem reason={failure} remedy="Ask for a new one from the Forgot Password link on the login page." />
          </CardContent>
        ) : null}
        <CardFooter className="clipit-stack">
          {token && !failure ? (
            <Button block size="lg" loading={confirm.isPending} loadingText="Resetting..." onClick={() => confirm.mutate({ token })}>
              Confirm New Password
            </Button>
          ) : null}
          <Link to="/login" className="clip-btn clip-btn--outline clip-btn--lg clip-btn--block">
            Back to Login
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
