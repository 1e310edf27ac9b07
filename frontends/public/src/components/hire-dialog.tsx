import {
  HIRE_CONTACT_LABELS,
  HIRE_CONTACT_METHODS,
  HIRE_LIMITS,
  HIRE_MESSAGES,
  HIRE_PACKAGES,
  HIRE_URGENCIES,
  HIRE_URGENCY_LABELS,
  checkHireRequest,
  isHireContactMethod,
  ratingSummary,
  type HireContactMethod,
  type HirePackageChoice,
  type HirePackageId,
} from '@clipit/field-rules';
import {
  Badge,
  Button,
  cn,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  Input,
  Select,
  Skeleton,
  Textarea,
  useToast,
  VisuallyHidden,
} from '@clipit/ui';
import { apiJson, HttpError, type HireRequestSent, type HiringProfile, type SendHireRequest } from '@clipit/web-api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { emptyHireForm, hireFailureText, hireRequestBody, packageFields, validateHireForm, type HireForm } from '../lib/hire-form.js';
import { fetchHiringProfile, hiringProfileKey } from '../lib/hiring-profile.js';
import { handleOf, initialOf } from '../lib/people.js';
import { useCheckedForm } from '../lib/use-checked-form.js';
import '../styles/public.css';
import '../styles/hire.css';

export interface HireDialogProps {
  /** The clipper's user id. */
  clipperId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const PROFILE_FAILED = 'Failed to load this clipper’s profile.';

const URGENCY_OPTIONS = HIRE_URGENCIES.map((value) => ({ value, label: HIRE_URGENCY_LABELS[value] }));
const CONTACT_OPTIONS = HIRE_CONTACT_METHODS.map((value) => ({ value, label: HIRE_CONTACT_LABELS[value] }));

/** What the contact-info field asks for, by the chosen contact method. */
const CONTACT_HINTS: Record<HireContactMethod, { description: string; placeholder: string }> = {
  email: { description: 'The email address the clipper should write to.', placeholder: 'you@example.com' },
  telegram: { description: 'Your Telegram username.', placeholder: '@yourname' },
  twitter: { description: 'Your Twitter/X handle.', placeholder: '@yourhandle' },
};

const clipperPath = (clipperId: string) => `/api/clippers/${encodeURIComponent(clipperId)}`;

/** '$40 · 7 clips · 24 hours'; Viral Marketing has no price and books a call. */
function packageTerms(pack: (typeof HIRE_PACKAGES)[number]): { price: string; terms: string } {
  if (pack.price === null) return { price: 'Custom', terms: 'Book a call' };
  return { price: `$${pack.price}`, terms: `${pack.clips} clips · ${pack.delivery}` };
}

function ProfileSkeleton() {
  return (
    <div className="clipit-hire-profile" aria-busy="true" data-testid="hire-profile-skeleton">
      <VisuallyHidden role="status">Loading the clipper’s profile</VisuallyHidden>
      <Skeleton shape="circle" className="clipit-hire-avatar" />
      <div className="clipit-hire-profile__text">
        <Skeleton shape="text" className="clipit-hire-skeleton-name" />
        <Skeleton shape="text" className="clipit-hire-skeleton-stats" />
      </div>
    </div>
  );
}

function ClipperSummary({ profile }: { profile: HiringProfile }) {
  const available = profile.isAvailable === 'true';
  const handle = handleOf(profile);
  return (
    <section className="clipit-hire-profile" aria-label="Clipper">
      {profile.profileImageUrl ? (
        <img className="clipit-hire-avatar" src={profile.profileImageUrl} alt="" width={56} height={56} decoding="async" />
      ) : (
        <span className="clipit-hire-avatar" aria-hidden="true">
          {initialOf(profile)}
        </span>
      )}
      <div className="clipit-hire-profile__text">
        <p className="clipit-hire-profile__name">
          <strong>{profile.displayName}</strong>
          {handle ? <span className="clipit-muted"> {handle}</span> : null}
        </p>
        <dl className="clipit-hire-stats">
          <div>
            <dt>Rating</dt>
            <dd>{ratingSummary(profile.averageRating, profile.totalReviews)}</dd>
          </div>
          <div>
            <dt>Total hires</dt>
            <dd>{profile.totalHires}</dd>
          </div>
          <div>
            <dt>Availability</dt>
            <dd>
              <Badge variant={available ? 'success' : 'secondary'}>{available ? 'Available' : 'Unavailable'}</Badge>
            </dd>
          </div>
        </dl>
        {available ? null : <p className="clipit-muted clipit-hire-note">{HIRE_MESSAGES.unavailable}</p>}
      </div>
    </section>
  );
}

function ClipperProfile({ clipperId, enabled }: { clipperId: string; enabled: boolean }) {
  const profile = useQuery<HiringProfile>({
    queryKey: hiringProfileKey(clipperId),
    queryFn: () => fetchHiringProfile(clipperId),
    enabled,
  });
  if (profile.isPending) return <ProfileSkeleton />;
  if (profile.isError) {
    const text = profile.error instanceof HttpError && profile.error.text.trim() !== '' ? profile.error.text : PROFILE_FAILED;
    return (
      <div className="clipit-hire-profile clipit-hire-profile--error">
        <p role="alert">{text}</p>
        <Button size="sm" variant="outline" loading={profile.isFetching} onClick={() => void profile.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return <ClipperSummary profile={profile.data} />;
}

function Packages({ choice, onChoose }: { choice: HirePackageChoice; onChoose: (id: HirePackageId) => void }) {
  const headingId = useId();
  return (
    <section className="clipit-hire-packages" aria-labelledby={headingId}>
      <h3 id={headingId} className="clipit-hire-heading">
        Packages
      </h3>
      <ul className="clipit-hire-packages__list">
        {HIRE_PACKAGES.map((pack) => {
          const { price, terms } = packageTerms(pack);
          const chosen = choice === pack.id;
          return (
            <li key={pack.id}>
              <button
                type="button"
                className={cn('clipit-hire-package', chosen && 'clipit-hire-package--chosen')}
                aria-pressed={chosen}
                data-package={pack.id}
                onClick={() => onChoose(pack.id)}
              >
                <span className="clipit-hire-package__name">{pack.name}</span>
                <span className="clipit-hire-package__price">{price}</span>
                <span className="clipit-hire-package__terms">{terms}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * What the dialog shows once the request is stored (ADR 0040): the link the client rates the hire with
 * once the clipper marks it completed. It is shown only here, so it says to keep it, and copies it.
 */
function RatingLink({ sent, onDone }: { sent: HireRequestSent; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const href = new URL(sent.ratingUrl, window.location.origin).href;
  const copy = () =>
    void navigator.clipboard?.writeText(href).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <section className="clipit-hire-sent" aria-label="Request sent">
      <p role="status">{sent.message}</p>
      <p>Keep this link: once the clipper marks the work completed, rate it there. It is shown only once.</p>
      <p className="clipit-hire-sent__link">
        <a href={href}>{href}</a>
      </p>
      <DialogFooter>
        <Button variant="outline" onClick={copy}>
          {copied ? 'Copied' : 'Copy Link'}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </section>
  );
}

/**
 * The hire dialog (spec 02 §2.7, §5 "Hire request", §7, §8; ADR 0027): the clipper's hiring profile
 * (name, image, rating, total hires, availability), the three packages (choosing one fills the budget
 * and the description) and the request form, checked field by field before it is sent. No session is
 * needed. The server's message is the success toast; a refusal is toasted 'Error' with its words.
 * Loaded on demand by the Hire Clipper button (hire-button.tsx).
 */
export default function HireDialog({ clipperId, open, onOpenChange }: HireDialogProps) {
  const { toast } = useToast();
  const [choice, setChoice] = useState<HirePackageChoice>('none');
  const { form, field, set, check, reset } = useCheckedForm<HireForm>(emptyHireForm, validateHireForm);
  const [sent, setSent] = useState<HireRequestSent | null>(null);

  const send = useMutation({
    mutationFn: (body: SendHireRequest) => apiJson<HireRequestSent>('POST', `${clipperPath(clipperId)}/hire`, body),
    onSuccess: (answer) => {
      // Spec 02 §8: the success text is the server's message when it sends one.
      if (answer?.message) toast({ title: answer.message, variant: 'success' });
      reset();
      setChoice('none');
      setSent(answer);
    },
    onError: (error: Error) => toast({ title: 'Error', description: hireFailureText(error), variant: 'destructive' }),
  });

  const choose = (id: HirePackageId) => {
    setChoice(id);
    const fill = packageFields(id);
    set('budget', fill.budget);
    set('projectDescription', fill.projectDescription);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending || !check()) return;
    const checked = checkHireRequest(form);
    if (checked.ok) send.mutate(hireRequestBody(clipperId, checked.value));
  };

  const close = () => {
    if (send.isPending) return;
    setSent(null);
    onOpenChange(false);
  };

  const contactHint = CONTACT_HINTS[isHireContactMethod(form.preferredContact) ? form.preferredContact : 'email'];

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} className="clipit-hire-dialog">
      <DialogTitle>Hire Clipper</DialogTitle>
      <DialogDescription>
        Pick a package or describe your project. The clipper answers through your preferred contact method.
      </DialogDescription>
      <ClipperProfile clipperId={clipperId} enabled={open} />
      {sent ? (
        <RatingLink sent={sent} onDone={close} />
      ) : (
        <>
          <Packages choice={choice} onChoose={choose} />
          <form className="clipit-form" noValidate onSubmit={onSubmit} aria-label="Hire request">
            <Input label="Your Name" name="clientName" autoComplete="name" required {...field('clientName')} />
            <Input
              label="Email"
              name="clientEmail"
              type="email"
              autoComplete="email"
              required
              placeholder="you@example.com"
              {...field('clientEmail')}
            />
            <Textarea
              label="Project Description"
              name="projectDescription"
              rows={4}
              required
              maxLength={HIRE_LIMITS.projectDescription.max}
              showCount
              placeholder="What should the clips show, and where will they be posted?"
              {...field('projectDescription')}
            />
            <Input
              label="Budget (USD, optional)"
              name="budget"
              inputMode="decimal"
              placeholder="100"
              description={choice === 'viral' ? 'Viral Marketing is priced on a call.' : undefined}
              {...field('budget')}
            />
            <div className="clipit-hire-row">
              <Select label="Urgency" name="urgency" options={URGENCY_OPTIONS} {...field('urgency')} />
              <Select label="Preferred Contact" name="preferredContact" options={CONTACT_OPTIONS} {...field('preferredContact')} />
            </div>
            <Input
              label="Contact Info"
              name="contactInfo"
              required
              maxLength={HIRE_LIMITS.contactInfo.max}
              description={contactHint.description}
              placeholder={contactHint.placeholder}
              {...field('contactInfo')}
            />
            <DialogFooter>
              <Button variant="outline" onClick={close} disabled={send.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={send.isPending} disabled={send.isPending} loadingText="Sending...">
                Send Request
              </Button>
            </DialogFooter>
          </form>
        </>
      )}
    </Dialog>
  );
}
