import { Badge, Button, Card, CardDescription, CardHeader, CardTitle, Spinner } from '@clipit/ui';
import { useCurrentUser, useSignInTarget } from '@clipit/web-api';
import { useEffect } from 'react';
import { Link, useNavigate } from '@clipit/router';
import { CLIPPER_DASHBOARD, fullNavigation } from '../lib/navigation.js';
import { HOW_IT_WORKS, TIERS } from '../lib/tiers.js';
import './dashboard.css';

/** /clippers/auth: the clipper landing and sign-in page (spec 02 §2.1). A signed-in visitor goes to the dashboard. */
export default function ClipperAuthPage() {
  const { user, isPending } = useCurrentUser();
  // With an X app: X's round trip (a full-page navigation to /api/login); without: the password sign-in.
  const signIn = useSignInTarget('landing');
  const navigate = useNavigate();
  useEffect(() => {
    if (user) fullNavigation.assign(CLIPPER_DASHBOARD);
  }, [user]);

  if (isPending || user) {
    return (
      <div className="clipit-dash-page clipit-dash-center">
        <Spinner label={user ? 'Opening your dashboard' : 'Loading'} />
      </div>
    );
  }

  return (
    <div className="clipit-dash-page">
      <section className="clipit-dash-hero" aria-labelledby="clipper-auth-title">
        <Badge variant="primary">CLIP IT Clippers</Badge>
        <h1 id="clipper-auth-title">Become a CLIP IT Clipper</h1>
        <p className="clipit-dash-lead">Turn live-stream moments into viral clips and earn $CLIP for every approved clip.</p>
        <Button size="lg" onClick={() => (signIn.kind === 'x' ? fullNavigation.assign(signIn.path) : navigate(signIn.path))}>
          Sign in with Twitter
        </Button>
        <p className="clipit-dash-lead">
          New to clipping for us? <Link to="/clippers/apply">Apply to join the team</Link>
        </p>
      </section>

      <section className="clipit-dash-section" aria-labelledby="tiers-title">
        <h2 id="tiers-title">Clipper Tiers</h2>
        <ol className="clipit-dash-grid clipit-dash-grid--4" aria-label="Clipper tiers">
          {TIERS.map((tier) => (
            <li key={tier.name}>
              <Card className={`clipit-tier clipit-tier--${tier.name.toLowerCase()}`}>
                <CardHeader className="clipit-dash-card-header-only">
                  <CardTitle>{tier.name}</CardTitle>
                  <CardDescription>{tier.summary}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <section className="clipit-dash-section" aria-labelledby="how-title">
        <h2 id="how-title">How It Works</h2>
        <ol className="clipit-dash-grid clipit-dash-grid--3">
          {HOW_IT_WORKS.map((step, index) => (
            <li key={step.title}>
              <Card>
                <CardHeader className="clipit-dash-card-header-only">
                  <span className="clipit-dash-step" aria-hidden="true">
                    {index + 1}
                  </span>
                  <CardTitle>{step.title}</CardTitle>
                  <CardDescription>{step.text}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <div className="clipit-dash-center">
        <Link to="/" className="clip-btn clip-btn--ghost clip-btn--md">
          ← Back to Home
        </Link>
      </div>
    </div>
  );
}
