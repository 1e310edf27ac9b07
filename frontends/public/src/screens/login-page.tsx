import { X_SIGN_IN_ERROR_TITLE, xSignInErrorText } from '@clipit/field-rules';
import { useSearchParams } from '@clipit/router';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Select, useToast } from '@clipit/ui';
import { apiJson, currentUserKey, useXSignInAvailability, X_SIGN_IN_PATHS, type LoginResponse, type SignupResponse } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ResetPasswordDialog } from '../components/reset-password-dialog.js';
import { loginBody, loginWelcome, signupRequestBody, signupWelcome } from '../lib/auth-payload.js';
import { AFTER_SIGN_IN, fullNavigation, REDIRECT_DELAY_MS } from '../lib/navigation.js';
import { useCheckedForm } from '../lib/use-checked-form.js';
import {
  emptySignupForm,
  isImageFile,
  normalizeClaimCode,
  validateLogin,
  validateSignup,
  type LoginForm,
  type SignupForm,
} from '../lib/validation.js';
import '../styles/public.css';

type Mode = 'login' | 'signup';

/**
 * Identity refuses a sign-in or sign-up it cannot hash in time, at once, with a 503 and Retry-After (ADR
 * 0044): the call is sent again after it, a few times, while the button stays busy; the last refusal's
 * text is what the toast shows.
 */
const BUSY_RETRIED = { retryBusy: true } as const;

const ROLE_OPTIONS = [
  { value: 'clipper', label: 'Clipper' },
  { value: 'streamer', label: 'Streamer' },
];

/**
 * After signing in: the current user is stale, and the dashboard is a full navigation away, once the
 * success toast ('… Redirecting...') has been seen. Leaving the page first cancels the redirect.
 */
function useSignedIn() {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return async () => {
    await queryClient.invalidateQueries({ queryKey: currentUserKey });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => fullNavigation.assign(AFTER_SIGN_IN), REDIRECT_DELAY_MS);
  };
}

function LoginPanel({ onForgot }: { onForgot: () => void }) {
  const { toast } = useToast();
  const signedIn = useSignedIn();
  const { form, field, check } = useCheckedForm<LoginForm>({ twitterHandle: '', password: '' }, validateLogin);
  const login = useMutation({
    mutationFn: (body: LoginForm) => apiJson<LoginResponse>('POST', '/api/auth/login', body, BUSY_RETRIED),
    onSuccess: async (response, body) => {
      toast({ title: 'Logged in successfully!', description: loginWelcome(response, body.twitterHandle), variant: 'success' });
      await signedIn();
    },
    onError: (error: Error) => toast({ title: 'Failed to log in', description: error.message, variant: 'destructive' }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check()) login.mutate(loginBody(form));
  };
  return (
    <form className="clipit-form" noValidate onSubmit={submit} aria-label="Login">
      <Input label="Twitter Handle" name="twitterHandle" autoComplete="username" placeholder="@yourhandle" {...field('twitterHandle')} />
      <Input label="Password" name="password" type="password" autoComplete="current-password" passwordToggle {...field('password')} />
      <div className="clipit-form__aside">
        <Button variant="ghost" size="sm" onClick={onForgot}>
          Forgot Password
        </Button>
      </div>
      <Button type="submit" block size="lg" loading={login.isPending || login.isSuccess} loadingText="Logging in...">
        Log In
      </Button>
    </form>
  );
}

function SignupPanel() {
  const { toast } = useToast();
  const signedIn = useSignedIn();
  const pictureId = useId();
  const pictureInput = useRef<HTMLInputElement>(null);
  const { form, field, set, check } = useCheckedForm<SignupForm>(emptySignupForm, validateSignup);
  const [picture, setPicture] = useState<File | null>(null);
  const [pictureError, setPictureError] = useState<string | undefined>();
  const signup = useMutation({
    mutationFn: (body: ReturnType<typeof signupRequestBody>) => apiJson<SignupResponse>('POST', '/api/auth/signup', body, BUSY_RETRIED),
    onSuccess: async (response) => {
      toast({ title: 'Account created successfully!', description: signupWelcome(response), variant: 'success' });
      await signedIn();
    },
    onError: (error: Error) => toast({ title: 'Failed to create account', description: error.message, variant: 'destructive' }),
  });
  const choosePicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (file && !isImageFile(file)) {
      setPicture(null);
      setPictureError('Please choose an image file');
      event.target.value = '';
      return;
    }
    setPictureError(undefined);
    setPicture(file);
  };
  const clearPicture = () => {
    setPicture(null);
    setPictureError(undefined);
    if (pictureInput.current) pictureInput.current.value = '';
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Both run, so every problem shows at once.
    const valid = check();
    if (!valid || pictureError) return;
    signup.mutate(signupRequestBody(form, picture));
  };
  const streamer = form.role === 'streamer';
  return (
    <form className="clipit-form" noValidate onSubmit={submit} aria-label="Sign Up">
      <div className={pictureError ? 'clip-field clip-field--invalid' : 'clip-field'}>
        <label className="clip-field__label" htmlFor={pictureId}>
          Profile Picture (optional)
        </label>
        <input
          ref={pictureInput}
          id={pictureId}
          className="clipit-file-input"
          type="file"
          name="profilePicture"
          accept="image/*"
          aria-invalid={pictureError ? true : undefined}
          aria-describedby={pictureError ? `${pictureId}-error` : undefined}
          onChange={choosePicture}
        />
        {picture ? (
          <p className="clip-field__description clipit-file-chosen">
            <span>{picture.name}</span>
            <Button variant="ghost" size="sm" onClick={clearPicture}>
              Remove
            </Button>
          </p>
        ) : null}
        {pictureError ? (
          <p id={`${pictureId}-error`} className="clip-field__error">
            {pictureError}
          </p>
        ) : null}
      </div>
      <Select label="Role" name="role" placeholder="Select a role" options={ROLE_OPTIONS} {...field('role')} />
      {streamer ? (
        <Input
          label="Claim Code (optional)"
          name="claimCode"
          placeholder="CLAIM-XXXXXXXX"
          autoCapitalize="characters"
          description="Have a claim code? Enter it to claim your pre-created streamer profile."
          {...field('claimCode')}
          onChange={(e) => set('claimCode', normalizeClaimCode(e.target.value))}
        />
      ) : null}
      <Input label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
      <Input label="Display Name (optional)" name="displayName" autoComplete="nickname" {...field('displayName')} />
      <Input label="Twitter Handle" name="twitterHandle" autoComplete="username" placeholder="@yourhandle" {...field('twitterHandle')} />
      <Input
        label="Solana Wallet"
        name="walletAddress"
        autoComplete="off"
        spellCheck={false}
        description="Your $CLIP rewards are paid to this wallet."
        {...field('walletAddress')}
      />
      {streamer ? (
        <Input label="Token Link (optional)" name="tokenLink" type="url" placeholder="https://pump.fun/coin/…" {...field('tokenLink')} />
      ) : null}
      <Input label="Password" name="password" type="password" autoComplete="new-password" passwordToggle {...field('password')} />
      <Input
        label="Confirm Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        passwordToggle
        {...field('confirmPassword')}
      />
      <Button type="submit" block size="lg" loading={signup.isPending || signup.isSuccess} loadingText="Creating account...">
        Create Account
      </Button>
    </form>
  );
}

/**
 * A sign-in with X that ended badly comes back as /login?error=<code> (ADR 0028): the toast says what
 * happened, then the code leaves the address, so a reload or a shared link does not say it again.
 */
function useXSignInErrorToast() {
  const { toast } = useToast();
  const [params, setParams] = useSearchParams();
  const code = params.get('error');
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!code || shown.current === code) return;
    shown.current = code;
    toast({ title: X_SIGN_IN_ERROR_TITLE, description: xSignInErrorText(code), variant: 'destructive' });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [code, setParams, toast]);
}

/**
 * Sign in with X: a full-page navigation to the gateway. Shown only once the platform has said it has an X
 * app (ADR 0028): the page offers nothing a visitor cannot use, so without one the password forms are all.
 */
function XSignIn() {
  const { toast } = useToast();
  const signIn = () => {
    try {
      fullNavigation.assign(X_SIGN_IN_PATHS.login);
    } catch {
      toast({
        title: X_SIGN_IN_ERROR_TITLE,
        description: 'Failed to redirect to Twitter login. Please try refreshing the page.',
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="clipit-stack">
      <p className="clipit-muted clipit-or" aria-hidden="true">
        or
      </p>
      <Button variant="outline" block size="lg" onClick={signIn}>
        Sign in with X
      </Button>
    </div>
  );
}

/** /login: login and sign-up in one page, and the reset-password dialog (spec 01 §2). */
export default function LoginPage() {
  useXSignInErrorToast();
  const x = useXSignInAvailability();
  const [mode, setMode] = useState<Mode>('login');
  const [resetOpen, setResetOpen] = useState(false);
  const login = mode === 'login';
  return (
    <div className="clipit-page clipit-page--narrow">
      <Card>
        <CardHeader>
          <CardTitle level={1}>{login ? 'Welcome Back' : 'Join CLIP IT'}</CardTitle>
          <CardDescription>{login ? 'Log in to your CLIP IT account.' : 'Create your account and start earning $CLIP.'}</CardDescription>
        </CardHeader>
        <CardContent>
          <div className="clipit-mode-toggle" role="group" aria-label="Login or sign up">
            <Button variant={login ? 'primary' : 'ghost'} aria-pressed={login} onClick={() => setMode('login')}>
              Login
            </Button>
            <Button variant={login ? 'ghost' : 'primary'} aria-pressed={!login} onClick={() => setMode('signup')}>
              Sign Up
            </Button>
          </div>
          {login ? <LoginPanel onForgot={() => setResetOpen(true)} /> : <SignupPanel />}
          {x.known && x.available ? <XSignIn /> : null}
        </CardContent>
      </Card>
      <ResetPasswordDialog open={resetOpen} onOpenChange={setResetOpen} />
    </div>
  );
}
