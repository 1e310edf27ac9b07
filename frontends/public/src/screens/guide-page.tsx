import { Link } from '@clipit/router';
import '../styles/guide.css';

/** Spec 01 §5: the rules every clip follows. */
const RULES = [
  { title: 'Watermark', text: 'Put the CLIP IT watermark in the top right corner. No other logos.' },
  { title: 'Length', text: 'Clips are at least 15 seconds long. Uploads are capped at 40 seconds.' },
  { title: 'Format', text: 'Portrait, 9:16.' },
  { title: 'Where to post', text: 'Post on Instagram, TikTok or YouTube Shorts.' },
  { title: 'No bots', text: 'No bots and no bought views, likes or followers.' },
  { title: 'Audience', text: 'Target viewers in the USA, UK, Canada, Australia and New Zealand.' },
  { title: 'Call to action', text: 'Every clip ends with a call to action.' },
  { title: 'Tag us', text: 'Tag the main CLIP IT account in every post.' },
];

/** Spec 02 §2.1: the four tiers. */
const TIERS = [
  { name: 'Bronze', who: 'New clippers' },
  { name: 'Silver', who: 'Consistent performers' },
  { name: 'Gold', who: 'High-quality creators' },
  { name: 'Diamond', who: 'Elite viral content' },
];

/**
 * Spec 02 §9, "Tier requirements as displayed". Where §9 disagrees with itself (its progress bar counts
 * 16 and 51 approved clips for Silver and Gold) the displayed table is the one quoted; Diamond's
 * requirements are not published.
 */
const REQUIREMENTS = [
  { tier: 'Bronze', total: '0+', window: '1+', rate: '50%+', views: '100+' },
  { tier: 'Silver', total: '10+', window: '5+', rate: '70%+', views: '500+' },
  { tier: 'Gold', total: '25+', window: '10+', rate: '80%+', views: '1500+' },
];

/** /guide: how clipping for CLIP IT works, for clippers (spec 01 §5 rules; spec 02 §9 tiers, points and payouts). */
export default function GuidePage() {
  return (
    <div className="clipit-guide">
      <header className="clipit-guide-hero">
        <h1>How It Works</h1>
        <p className="clipit-guide-lead">
          Cut short clips from live streams and memes, post them, submit the post, and get paid in $CLIP for every approved clip.
        </p>
        <div className="clipit-guide-actions">
          <Link to="/login" className="clip-btn clip-btn--primary clip-btn--lg">
            Apply / Sign Up
          </Link>
          <Link to="/submit" className="clip-btn clip-btn--outline clip-btn--lg">
            Submit a Clip
          </Link>
        </div>
      </header>

      <section className="clipit-guide-section" aria-labelledby="guide-rules">
        <h2 id="guide-rules">Clip Rules</h2>
        <ul className="clipit-guide-rules">
          {RULES.map((rule) => (
            <li key={rule.title}>
              <h3>{rule.title}</h3>
              <p>{rule.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-tiers">
        <h2 id="guide-tiers">Tiers</h2>
        <p>
          Clippers move up through four tiers as their approved clips, approval rate and views grow. Each tier pays its own rate per
          approved clip; your dashboard shows your tier, your rate and what you still need for the next one.
        </p>
        <ul className="clipit-guide-tiers">
          {TIERS.map((tier) => (
            <li key={tier.name} className={`clipit-guide-tier clipit-guide-tier--${tier.name.toLowerCase()}`}>
              <h3>{tier.name}</h3>
              <p>{tier.who}</p>
            </li>
          ))}
        </ul>
        <table className="clipit-guide-table">
          <caption>Tier requirements</caption>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Approved total</th>
              <th scope="col">Approved in last 4 weeks</th>
              <th scope="col">Approval rate</th>
              <th scope="col">Average views</th>
            </tr>
          </thead>
          <tbody>
            {REQUIREMENTS.map((row) => (
              <tr key={row.tier}>
                <th scope="row">{row.tier}</th>
                <td>{row.total}</td>
                <td>{row.window}</td>
                <td>{row.rate}</td>
                <td>{row.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="clipit-guide-note">
          Diamond is the tier above Gold; its requirements are not published. Gold clippers can be hired by viewers and streamers.
        </p>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-points">
        <h2 id="guide-points">Clip Points</h2>
        <ul className="clipit-guide-list">
          <li>10 base points for every approved clip, multiplied by your approval ratio.</li>
          <li>Plus a view bonus: your total views divided by 10.</li>
          <li>A 50% inactivity penalty applies after 2 weeks with no approved clip.</li>
          <li>Streamers carry a multiplier from 1.00x to 2.00x that gives clippers bonus points on their clips.</li>
        </ul>
        <p className="clipit-guide-note">
          Example: 20 approved clips at a 90% approval ratio with 5,000 total views: 20 × 10 × 0.9 + 5,000 ÷ 10 = 180 + 500 = 680 points.
        </p>
      </section>

      <section className="clipit-guide-section" aria-labelledby="guide-payouts">
        <h2 id="guide-payouts">Payouts</h2>
        <p>
          Earnings are paid weekly, on Fridays, in $CLIP to the Solana wallet address on your profile. Keep it up to date: payments sent to
          a wrong address cannot be recovered.
        </p>
      </section>

      <section className="clipit-guide-cta" aria-labelledby="guide-start">
        <h2 id="guide-start">Ready to Clip?</h2>
        <p>Sign up as a clipper, then submit your first clip with its video.</p>
        <div className="clipit-guide-actions">
          <Link to="/login" className="clip-btn clip-btn--primary clip-btn--lg">
            Sign Up
          </Link>
          <Link to="/submit" className="clip-btn clip-btn--outline clip-btn--lg">
            Submit
          </Link>
        </div>
      </section>
    </div>
  );
}
