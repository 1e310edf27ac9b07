import { EMAIL_VERIFICATION_MESSAGES, linkTokenFromHash } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@clipit/ui';
import {
  apiJson,
  currentUserKey,
  useCurrentUser,
  type SendEmailVerificationResponse,
  type VerifyEmailRequest,
  type VerifyEmailResponse,
} from '@clipit/web-api';
import { Link, useLocation } from '@clipit/router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LinkProblem } from '../components/link-problem.js';
import '../styles/public.css';

/**
 * /verify-email#token=…: the page the link mailed at sign-up opens (ADR 0031). Confirming proves the
 * address is the account owner's; password reset links go only to a confirmed address.
 */
export default function VerifyEmailPage() {
  const { hash } = useLocation();
  const queryClient = useQueryClient();
  const [token] = useState(() => linkTokenFromHash(hash));
  const { user } = useCurrentUser();
  const verify = useMutation({
    mutationFn: (body: VerifyEmailRequest) => apiJson<VerifyEmailResponse>('POST', '/api/auth/verify-email', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
  // A signed-in person whose link is spent or expired asks for a new one here.
  const resend = useMutation({ mutationFn: () => apiJson<SendEmailVerificationResponse>('POST', '/api/auth/verify-email/send') });
  const failure = !token ? EMAIL_VERIFICATION_MESSAGES.invalid : verify.error?.message;

  return (
    <div className="clipit-page clipit-page--narrow">
      <Card>
        <CardHeader>
          <CardTitle level={1}>Confirm Your Email</CardTitle>
          <CardDescription>Password reset links are only ever sent to a confirmed email address.</CardDescription>
        </CardHeader>
        <CardContent>
          {verify.isSuccess ? (
            <div className="clipit-notice clipit-notice--success" role="status">
              <strong>{EMAIL_VERIFICATION_MESSAGES.verified}</strong>
              <span>You can now reset your password by email if you ever need to.</span>
            </div>
          ) : failure ? (
            <LinkProblem
              reason={failure}
              remedy={user ? 'Ask for a new one below.' : 'Log in, then open this page again to ask for a new one.'}
            />
          ) : null}
          {resend.data ? (
            <p className="clipit-muted" role="status">
              {resend.data.message}
            </p>
          ) : null}
          {resend.error ? (
            <p className="clipit-muted" role="status">
              {resend.error.message}
            </p>
          ) : null}
        </CardContent>
        <CardFooter className="clipit-stack">
          {token && !verify.isSuccess && !verify.isError ? (
            <Button block size="lg" loading={verify.isPending} loadingText="Confirming..." onClick={() => verify.mutate({ token })}>
              Confirm Email Address
            </Button>
          ) : null}
          {failure && user && !resend.data ? (
            <Button block size="lg" variant="outline" loading={resend.isPending} loadingText="Sending..." onClick={() => resend.mutate()}>
              Send a New Link
            </Button>
          ) : null}
          <Link to="/" className="clip-btn clip-btn--outline clip-btn--lg clip-btn--block">
            Back to Home
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
