import { Badge, Card, CardContent, CardDescription, CardHeader, CardTitle } from '@clipit/ui';
import { Link } from '@clipit/router';
import '../styles/public.css';

const CTA = 'clip-btn clip-btn--primary clip-btn--lg';

/**
 * The two sample clips (spec 01 §2): short portrait videos the project makes itself
 * (frontends/public/scripts/make-sample-clips.mjs), shipped with this remote's build under content-hashed
 * names and served by the gateway in byte ranges. They play muted and looped, inline on a phone, with
 * their poster until the first frame is in; the controls let a visitor pause or unmute them.
 */
const SAMPLES = [
  {
    title: 'Stream highlight',
    caption: 'A 30-second moment from a live stream, captioned and branded.',
    views: '1.2M',
    video: new URL('../assets/sample-stream-highlight.mp4', import.meta.url).href,
    poster: new URL('../assets/sample-stream-highlight.jpg', import.meta.url).href,
  },
  {
    title: 'Meme edit',
    caption: 'A meme-format cut built to be shared, with the call to action built in.',
    views: '845K',
    video: new URL('../assets/sample-meme-edit.mp4', import.meta.url).href,
    poster: new URL('../assets/sample-meme-edit.jpg', import.meta.url).href,
  },
] as const;

function SampleClip({ title, caption, views, video, poster }: (typeof SAMPLES)[number]) {
  return (
    <figure className="clipit-sample">
      <div className="clipit-sample__frame">
        <video
          className="clipit-sample__video"
          src={video}
          poster={poster}
          aria-label={`Sample clip: ${title}`}
          width={360}
          height={640}
          muted
          loop
          playsInline
          autoPlay
          controls
          preload="auto"
        />
        <span className="clipit-sample__views" aria-hidden="true">
          {views} views
        </span>
      </div>
      <figcaption>
        <strong>{title}</strong>
        <span className="clipit-muted">{caption}</span>
      </figcaption>
    </figure>
  );
}

const REASONS = [
  {
    title: 'Proven Results',
    text: 'Our clips have reached millions of viewers across X, TikTok, Instagram and YouTube Shorts, and every campaign is measured in real views.',
  },
  {
    title: 'Elite Salaried Team',
    text: 'A dedicated, salaried team of editors cuts your content, not a crowd of bots: consistent quality, on brand, on schedule.',
  },
  {
    title: 'End-to-End Growth',
    text: 'From picking the moments to posting, tracking and reporting, we run the whole funnel that turns streams into followers.',
  },
];

/** /client-services: what CLIP IT offers brands and streamers (spec 01 §2). */
export default function ClientServicesPage() {
  return (
    <div className="clipit-page">
      <section className="clipit-hero" aria-labelledby="client-services-title">
        <Badge variant="primary">For streamers and brands</Badge>
        <h1 id="client-services-title">Client Services</h1>
        <p className="clipit-lead">Short-form clips that put your streams and your brand in front of the right audience.</p>
      </section>

      <section className="clipit-section" aria-labelledby="samples-title">
        <h2 id="samples-title">Sample Clips</h2>
        <div className="clipit-samples">
          {SAMPLES.map((sample) => (
            <SampleClip key={sample.title} {...sample} />
          ))}
        </div>
      </section>

      <section className="clipit-section clipit-grid-2">
        <Card>
          <CardHeader>
            <CardTitle level={2}>Pay-Per-View Campaigns</CardTitle>
            <CardDescription>CPM-based pricing: you pay for the views your clips actually get, nothing else.</CardDescription>
          </CardHeader>
          <CardContent className="clipit-stack">
            <ul className="clipit-list">
              <li>Set a budget and a cost per thousand views (CPM)</li>
              <li>Our clippers post across X, TikTok, Instagram and YouTube Shorts</li>
              <li>Views are tracked for every post, reported as they come in</li>
            </ul>
            <Link to="/discover" className={CTA}>
              Start a Campaign
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle level={2}>Partner With Us</CardTitle>
            <CardDescription>A long-term clipping partner for streamers and projects that want to grow every week.</CardDescription>
          </CardHeader>
          <CardContent className="clipit-stack">
            <ul className="clipit-list">
              <li>A team that learns your content and your audience</li>
              <li>Clips of every stream, posted on a schedule</li>
              <li>Your token or brand tagged on every clip</li>
            </ul>
            <Link to="/discover" className={CTA}>
              Become a Partner
            </Link>
          </CardContent>
        </Card>
      </section>

      <section className="clipit-section" aria-labelledby="why-title">
        <h2 id="why-title">Why CLIP IT</h2>
        <div className="clipit-grid-3">
          {REASONS.map((reason) => (
            <Card key={reason.title}>
              <CardHeader className="clipit-card-header-only">
                <CardTitle>{reason.title}</CardTitle>
                <CardDescription>{reason.text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
        <div className="clipit-center">
          <Link to="/discover" className={CTA}>
            Get Started
          </Link>
        </div>
      </section>
    </div>
  );
}
