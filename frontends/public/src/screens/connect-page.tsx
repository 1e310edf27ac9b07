import { WALLET_MESSAGES, walletProblem } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, Input, Spinner, useToast } from '@clipit/ui';
import { apiJson, currentUserKey, useCurrentUser, useSignInTarget, type CurrentUser, type UpdateProfileRequest } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@clipit/router';
import { fullNavigation } from '../lib/navigation.js';
import '../styles/public.css';

const linkButton = (variant: 'primary' | 'outline', extra = '') =>
  `clip-btn clip-btn--${variant} clip-btn--lg clip-btn--block ${extra}`.trim();

function LoginRequired() {
  const { toast } = useToast();
  // With an X app: X's round trip; without: the password sign-in, after which the dashboard takes the wallet.
  const signIn = useSignInTarget('connect');
  const navigate = useNavigate();
  const loginWithTwitter = () => {
    if (signIn.kind === 'page') {
      navigate(signIn.path);
      return;
    }
    try {
      fullNavigation.assign(signIn.path);
    } catch {
      toast({
        title: 'Login Error',
        description: 'Failed to redirect to Twitter login. Please try refreshing the page.',
        variant: 'destructive',
      });
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>Login Required</CardTitle>
        <CardDescription>Connect your Twitter account first, then add the wallet your rewards are paid to.</CardDescription>
      </CardHeader>
      <CardFooter className="clipit-stack">
        <Button block size="lg" onClick={loginWithTwitter}>
          Login with Twitter
        </Button>
        <Link to="/" className={linkButton('outline')}>
          Back to Home
        </Link>
      </CardFooter>
    </Card>
  );
}

function AllSet({ username, wallet }: { username: string; wallet: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>All Set!</CardTitle>
        <CardDescription>
          Your Twitter account @{username} and your wallet are connected. You can submit posts to the leaderboard.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <p className="clipit-wallet">
          <span className="clipit-muted">Wallet</span> <code>{wallet}</code>
        </p>
      </CardContent>
      <CardFooter className="clipit-stack">
        <Link to="/submit" className={linkButton('primary')}>
          Submit a Post
        </Link>
        <Link to="/leaderboard" className={linkButton('outline')}>
          View Leaderboard
        </Link>
      </CardFooter>
    </Card>
  );
}

function AddWallet({ username }: { username: string | null }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [wallet, setWallet] = useState('');
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (walletAddress: string) =>
      apiJson<CurrentUser>('PATCH', '/api/user/profile', { walletAddress } satisfies UpdateProfileRequest),
    onSuccess: async () => {
      toast({
        title: 'Wallet Added!',
        description: 'Your wallet address has been saved. You can now submit posts to the leaderboard.',
        variant: 'success',
      });
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
    onError: (err: Error) =>
      toast({ title: 'Save Failed', description: err.message || 'Failed to save wallet address', variant: 'destructive' }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = walletProblem(wallet, WALLET_MESSAGES.required);
    setError(problem);
    if (problem) return;
    save.mutate(wallet.trim());
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle level={1}>Add Wallet Address</CardTitle>
        <CardDescription>One more step before you can submit posts to the leaderboard.</CardDescription>
      </CardHeader>
      <CardContent className="clipit-stack">
        <div className="clipit-notice clipit-notice--success" role="status">
          <strong>Twitter Connected</strong>
          <span>{username ? `Signed in as @${username}.` : 'Your Twitter account is connected.'}</span>
        </div>
        <form className="clipit-form" noValidate onSubmit={submit} aria-label="Add Wallet Address">
          <Input
            label="Solana Wallet Address"
            name="walletAddress"
            autoComplete="off"
            spellCheck={false}
            placeholder="Your Solana wallet address"
            value={wallet}
            error={error}
            onChange={(e) => {
              setWallet(e.target.value);
              setError(undefined);
            }}
          />
          <div className="clipit-notice clipit-notice--warning" role="note">
            <strong>Important</strong>
            <span>
              This wallet receives your $CLIP rewards. Double-check the address: payments sent to a wrong address cannot be recovered.
            </span>
          </div>
          <Button type="submit" block size="lg" loading={save.isPending} loadingText="Saving...">
            Save Wallet Address
          </Button>
        </form>
      </CardContent>
      <CardFooter>
        <Link to="/leaderboard" className={linkButton('outline')}>
          Skip for Now
        </Link>
      </CardFooter>
    </Card>
  );
}

/** /connect: sign in with Twitter, then add the wallet rewards are paid to (spec 01 §2, §4). */
export default function ConnectPage() {
  const { user, isPending } = useCurrentUser();
  let content;
  if (isPending) content = <Spinner label="Loading your account" />;
  else if (!user) content = <LoginRequired />;
  else if (user.twitterUsername && user.walletAddress) content = <AllSet username={user.twitterUsername} wallet={user.walletAddress} />;
  else content = <AddWallet username={user.twitterUsername} />;
  return <div className="clipit-page clipit-page--narrow">{content}</div>;
}
