import { EMAIL_VERIFICATION_MESSAGES, linkTokenFromHash } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@clipit/ui';
import { apiJson, currentUserKey, type VerifyEmailRequest, type VerifyEmailResponse } from '@clipit/web-api';
import { Link, useLocation } from '@clipit/router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import '../styles/public.css';

/**
 * /verify-email#token=…: the page the link mailed at sign-up opens (ADR 0031). Confirming proves the
 * address is the account owner's; password reset links go only to a confirmed address.
 */
export default function VerifyEmailPage() {
  const { hash } = useLocation();
  const queryClient = useQueryClient();
  const [token] = useState(() => linkTokenFromHash(hash));
  const verify = useMutation({
    mutationFn: (body: VerifyEmailRequest) => apiJson<VerifyEmailResponse>('POST', '/api/auth/verify-email', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKey }),
  });
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
            <div className="clipit-notice clipit-notice--warning" role="alert">
              <strong>This link cannot be used</strong>
              <span>{failure}. Sign in and ask for a new one from your dashboard.</span>
            </div>
          ) : null}
        </CardContent>
        <CardFooter className="clipit-stack">
          {token && !verify.isSuccess && !verify.isError ? (
            <Button block size="lg" loading={verify.isPending} loadingText="Confirming..." onClick={() => verify.mutate({ token })}>
              Confirm Email Address
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
