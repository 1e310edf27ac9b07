import {
  CLIPPER_APPLICATION_LIMITS as LIMITS,
  checkClipperApplication,
  type ClipperApplicationField,
  type ClipperApplicationInput,
} from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Textarea, useToast } from '@clipit/ui';
import { apiJson, type ApplicationReceived, type SubmitApplicationRequest } from '@clipit/web-api';
import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from '@clipit/router';
import './dashboard.css';

type Form = Record<ClipperApplicationField, string>;
type Errors = Partial<Record<ClipperApplicationField, string>>;

const EMPTY: Form = {
  fullName: '',
  email: '',
  socialMediaHandles: '',
  availabilityHours: '',
  experience: '',
  whyJoin: '',
  portfolioLinks: '',
};

/** What the gateway takes: the typed text, optional fields left out when empty. */
function requestBody(form: Form): SubmitApplicationRequest {
  const optional = (v: string) => (v.trim() === '' ? undefined : v);
  const input: ClipperApplicationInput = {
    fullName: form.fullName,
    email: form.email,
    experience: form.experience,
    whyJoin: form.whyJoin,
    socialMediaHandles: optional(form.socialMediaHandles),
    portfolioLinks: optional(form.portfolioLinks),
    availabilityHours: optional(form.availabilityHours),
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as SubmitApplicationRequest;
}

/**
 * /clippers/apply: the clipper job application (spec 02 §3, §5; the spec does not show this screen, ADR
 * 0020 decides it). Anyone may apply, signed in or not; the rules are the ones the server enforces, so
 * a person sees every problem beside its field before anything is sent.
 */
export default function ClipperApplyPage() {
  const { toast } = useToast();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const apply = useMutation({
    mutationFn: (body: SubmitApplicationRequest) => apiJson<ApplicationReceived>('POST', '/api/clipper-applications', body),
    onSuccess: (answer) => toast({ title: 'Application submitted!', description: answer.message, variant: 'success' }),
    onError: (error: Error) => toast({ title: 'Failed to submit application', description: error.message, variant: 'destructive' }),
  });

  const field = (name: ClipperApplicationField) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = event.target.value;
      setForm((f) => ({ ...f, [name]: value }));
      setErrors((e) => ({ ...e, [name]: undefined }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkClipperApplication(requestBody(form));
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    apply.mutate(requestBody(form));
  };

  if (apply.isSuccess) {
    return (
      <div className="clipit-dash-page clipit-dash-narrow">
        <Card role="status">
          <CardHeader>
            <CardTitle>Application received</CardTitle>
            <CardDescription>{apply.data.message}</CardDescription>
          </CardHeader>
          <CardContent className="clipit-dash-actions">
            <Link to="/clippers/auth" className="clip-btn clip-btn--primary clip-btn--md">
              Back to Clippers
            </Link>
            <Link to="/" className="clip-btn clip-btn--ghost clip-btn--md">
              Home
            </Link>
          </CardContent>
        </Card>
      </div>
    );
  }

  return (
    <div className="clipit-dash-page clipit-dash-narrow">
      <section className="clipit-dash-hero" aria-labelledby="apply-title">
        <Badge variant="primary">We're hiring clippers</Badge>
        <h1 id="apply-title">Apply to Clip for CLIP IT</h1>
        <p className="clipit-dash-lead">Tell us about your clipping. An admin reviews every application and answers by email.</p>
      </section>

      <Card>
        <CardContent>
          <form className="clipit-dash-form" noValidate onSubmit={submit} aria-label="Clipper application">
            <Input label="Full Name" autoComplete="name" maxLength={LIMITS.fullName.max} required {...field('fullName')} />
            <Input label="Email" type="email" autoComplete="email" required {...field('email')} />
            <Input
              label="Social Media Handles (optional)"
              description="Where we can see your clips, e.g. @you on X, @you on TikTok"
              maxLength={LIMITS.socialMediaHandles.max}
              {...field('socialMediaHandles')}
            />
            <Input
              label="Availability (hours per week, optional)"
              type="number"
              inputMode="numeric"
              min={LIMITS.availabilityHours.min}
              max={LIMITS.availabilityHours.max}
              step={1}
              {...field('availabilityHours')}
            />
            <Textarea
              label="Experience"
              description="What you have clipped, for whom, with which tools"
              rows={5}
              maxLength={LIMITS.experience.max}
              showCount
              required
              {...field('experience')}
            />
            <Textarea label="Why do you want to join?" rows={4} maxLength={LIMITS.whyJoin.max} showCount required {...field('whyJoin')} />
            <Textarea
              label="Portfolio Links (optional)"
              description="Links to clips you are proud of, one per line"
              rows={3}
              maxLength={LIMITS.portfolioLinks.max}
              showCount
              {...field('portfolioLinks')}
            />
            <Button type="submit" block size="lg" loading={apply.isPending} loadingText="Submitting...">
              Submit Application
            </Button>
          </form>
        </CardContent>
      </Card>

      <div className="clipit-dash-center">
        <Link to="/clippers/auth" className="clip-btn clip-btn--ghost clip-btn--md">
          ← Back to Clippers
        </Link>
      </div>
    </div>
  );
}
