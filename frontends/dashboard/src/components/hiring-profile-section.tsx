import { checkClipperProfile, checkClipperService, HIRE_REQUIRED_TIER, type ClipperProfileEdit } from '@clipit/field-rules';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Skeleton, Textarea, useToast } from '@clipit/ui';
import { apiJson, HttpError, type HiringProfile, type UpdateHiringProfileRequest } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { hiringProfileKey, listOf, serverText } from '../lib/campaigns-data.js';

const TIER_LABEL: Record<HiringProfile['clipperTier'], string> = { bronze: 'Bronze', silver: 'Silver', gold: 'Gold' };

interface ServiceValues {
  /** A row's identity in the form (the stored id, or a new one's). */
  key: string;
  serviceName: string;
  description: string;
  basePrice: string;
  deliveryTimeHours: string;
  isActive: boolean;
}

interface ProfileValues {
  bio: string;
  specialties: string;
  portfolioUrls: string;
  yearsExperience: string;
  hourlyRate: string;
  isAvailable: boolean;
  services: ServiceValues[];
}

const numberText = (n: number | null) => (n === null ? '' : String(n));

function valuesOf(profile: HiringProfile): ProfileValues {
  return {
    bio: profile.bio ?? '',
    specialties: profile.specialties.join(', '),
    portfolioUrls: profile.portfolioUrls.join('\n'),
    yearsExperience: numberText(profile.yearsExperience),
    hourlyRate: numberText(profile.hourlyRate),
    isAvailable: profile.isAvailable === 'true',
    services: profile.services.map((s) => ({
      key: s.id,
      serviceName: s.serviceName,
      description: s.description ?? '',
      basePrice: numberText(s.basePrice),
      deliveryTimeHours: numberText(s.deliveryTimeHours),
      isActive: s.isActive,
    })),
  };
}

type Errors = Partial<Record<string, string>>;

/** The form as the profile edit @clipit/field-rules checks: lists split as the fields say (commas; one link a line). */
function editOf(values: ProfileValues): ClipperProfileEdit {
  return {
    bio: values.bio,
    specialties: listOf(values.specialties),
    portfolioUrls: values.portfolioUrls.split(/\s+/),
    yearsExperience: values.yearsExperience,
    hourlyRate: values.hourlyRate,
    isAvailable: values.isAvailable,
    services: values.services.map(({ serviceName, description, basePrice, deliveryTimeHours, isActive }) => ({
      serviceName,
      description,
      basePrice,
      deliveryTimeHours,
      isActive,
    })),
  };
}

/**
 * What the form sends to PATCH /api/clipper-profile: every field (the services listed replace the old ones),
 * checked first by @clipit/field-rules' checkClipperProfile, the rules and words the campaigns service
 * applies again, each message beside its field (a service's beside the field of its row).
 */
export function profilePayload(values: ProfileValues): { ok: true; body: UpdateHiringProfileRequest } | { ok: false; errors: Errors } {
  const edit = editOf(values);
  const checked = checkClipperProfile(edit);
  if (!checked.ok) {
    const { services: servicesError, ...fieldErrors } = checked.errors;
    const errors: Errors = { ...fieldErrors };
    if (servicesError !== undefined) {
      const rowErrors = (edit.services ?? []).flatMap((service, i) => {
        const row = checkClipperService(service);
        return row.ok ? [] : [[`services.${i}.${row.field}`, row.error] as const];
      });
      // Too many services is the list's, not a row's.
      if (rowErrors.length === 0) errors['services'] = servicesError;
      for (const [key, error] of rowErrors) errors[key] = error;
    }
    return { ok: false, errors };
  }
  const v = checked.value;
  return {
    ok: true,
    body: {
      bio: v.bio ?? null,
      specialties: v.specialties ?? [],
      portfolioUrls: v.portfolioUrls ?? [],
      yearsExperience: v.yearsExperience ?? null,
      hourlyRate: v.hourlyRate ?? null,
      isAvailable: v.isAvailable === 'true',
      services: v.services ?? [],
    },
  };
}

/** A native checkbox drawn as a switch: its label says what it turns on. */
function Switch({
  label,
  checked,
  onChange,
  description,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
}) {
  const id = useId();
  return (
    <div className="clipit-dash-switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={description ? `${id}-d` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {description ? (
        <p id={`${id}-d`} className="clip-field__description">
          {description}
        </p>
      ) : null}
    </div>
  );
}

/** Whether the clipper can be hired, and why not. */
function HireStatus({ profile }: { profile: HiringProfile }) {
  const gold = profile.clipperTier === HIRE_REQUIRED_TIER;
  let text: string;
  if (profile.canBeHired) text = 'You can be hired: the Hire Clipper button shows on your clips.';
  else if (!gold) text = 'Reach Gold to be hired';
  else text = 'You are not taking new work: turn on availability to be hired.';
  return (
    <div className="clipit-dash-stack clipit-dash-stack--tight">
      <p className="clipit-dash-live-row">
        <span>Points tier:</span>
        <Badge variant={gold ? 'success' : 'secondary'} className={`clipit-dash-tier-badge--${profile.clipperTier}`}>
          {TIER_LABEL[profile.clipperTier]}
        </Badge>
        <span className="clipit-dash-muted">
          {profile.clipPoints.toLocaleString('en-US')} points · {profile.totalHires} {profile.totalHires === 1 ? 'hire' : 'hires'} completed
        </span>
      </p>
      <p className={profile.canBeHired ? 'clipit-dash-note clipit-dash-note--success' : 'clipit-dash-note'} role="status">
        {text}
      </p>
    </div>
  );
}

let newKeys = 0;
const emptyService = (): ServiceValues => ({
  key: `new-${++newKeys}`,
  serviceName: '',
  description: '',
  basePrice: '',
  deliveryTimeHours: '',
  isActive: true,
});

function HiringProfileForm({ profile, userId }: { profile: HiringProfile; userId: string }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ProfileValues>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | undefined>();

  const save = useMutation({
    mutationFn: (body: UpdateHiringProfileRequest) => apiJson<HiringProfile>('PATCH', '/api/clipper-profile', body),
    onSuccess: (saved) => {
      toast({ title: 'Hiring profile updated!', description: 'Clients see your new profile when they hire you.', variant: 'success' });
      setServerError(undefined);
      setValues(valuesOf(saved));
      queryClient.setQueryData(hiringProfileKey(userId), saved);
    },
    onError: (error: Error) => {
      const text = serverText(error, 'Please try again.');
      setServerError(error instanceof HttpError && error.status === 400 ? text : undefined);
      toast({ title: 'Failed to update hiring profile', description: text, variant: 'destructive' });
    },
  });

  const set = <K extends keyof ProfileValues>(field: K, value: ProfileValues[K]) => setValues((v) => ({ ...v, [field]: value }));
  const setService = (index: number, patch: Partial<ServiceValues>) =>
    setValues((v) => ({ ...v, services: v.services.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const checked = profilePayload(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.body);
  };

  return (
    <form className="clipit-dash-form" onSubmit={submit} noValidate aria-label="Hiring profile">
      <HireStatus profile={profile} />
      <Switch
        label="Available for hire"
        checked={values.isAvailable}
        onChange={(checked) => set('isAvailable', checked)}
        description="Turn off when you are not taking new work; clients cannot send you requests then."
      />
      <Textarea
        label="Bio"
        name="bio"
        rows={3}
        showCount
        value={values.bio}
        error={errors['bio']}
        onChange={(e) => set('bio', e.target.value)}
      />
      <Input
        label="Specialties"
        name="specialties"
        value={values.specialties}
        description="Separated by commas: Gaming, Crypto, Memes"
        error={errors['specialties']}
        onChange={(e) => set('specialties', e.target.value)}
      />
      <Textarea
        label="Portfolio Links"
        name="portfolioUrls"
        rows={3}
        value={values.portfolioUrls}
        description="One link a line (http or https)."
        error={errors['portfolioUrls']}
        onChange={(e) => set('portfolioUrls', e.target.value)}
      />
      <div className="clipit-dash-grid clipit-dash-grid--2">
        <Input
          label="Years of Experience"
          name="yearsExperience"
          inputMode="numeric"
          value={values.yearsExperience}
          error={errors['yearsExperience']}
          onChange={(e) => set('yearsExperience', e.target.value)}
        />
        <Input
          label="Hourly Rate (USD)"
          name="hourlyRate"
          inputMode="decimal"
          value={values.hourlyRate}
          error={errors['hourlyRate']}
          onChange={(e) => set('hourlyRate', e.target.value)}
        />
      </div>

      <fieldset className="clipit-dash-fieldset">
        <legend className="clipit-dash-subtitle">Services</legend>
        {values.services.length === 0 ? <p className="clipit-dash-muted">No services listed. Add what clients can hire you for.</p> : null}
        <ul className="clipit-dash-list" aria-label="Your services">
          {values.services.map((service, i) => (
            <li
              key={service.key}
              className="clipit-dash-list__item clipit-dash-service"
              aria-label={service.serviceName.trim() || `Service ${i + 1}`}
            >
              <div className="clipit-dash-form clipit-dash-service__fields">
                <Input
                  label="Service Name"
                  value={service.serviceName}
                  error={errors[`services.${i}.serviceName`]}
                  onChange={(e) => setService(i, { serviceName: e.target.value })}
                />
                <Textarea
                  label="Service Description"
                  rows={2}
                  value={service.description}
                  error={errors[`services.${i}.description`]}
                  onChange={(e) => setService(i, { description: e.target.value })}
                />
                <div className="clipit-dash-grid clipit-dash-grid--2">
                  <Input
                    label="Price (USD)"
                    inputMode="decimal"
                    value={service.basePrice}
                    description="Empty: priced on a call"
                    error={errors[`services.${i}.basePrice`]}
                    onChange={(e) => setService(i, { basePrice: e.target.value })}
                  />
                  <Input
                    label="Delivery Time (hours)"
                    inputMode="numeric"
                    value={service.deliveryTimeHours}
                    error={errors[`services.${i}.deliveryTimeHours`]}
                    onChange={(e) => setService(i, { deliveryTimeHours: e.target.value })}
                  />
                </div>
                <div className="clipit-dash-actions clipit-dash-service__actions">
                  <Switch label="Offered" checked={service.isActive} onChange={(checked) => setService(i, { isActive: checked })} />
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove ${service.serviceName.trim() || `service ${i + 1}`}`}
                    onClick={() => setValues((v) => ({ ...v, services: v.services.filter((_, j) => j !== i) }))}
                  >
                    Remove
                  </Button>
                </div>
              </div>
            </li>
          ))}
        </ul>
        {errors['services'] ? (
          <p role="alert" className="clipit-dash-note clipit-dash-note--error">
            {errors['services']}
          </p>
        ) : null}
        <div className="clipit-dash-actions">
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setValues((v) => ({ ...v, services: [...v.services, emptyService()] }))}
          >
            Add Service
          </Button>
        </div>
      </fieldset>

      {serverError ? (
        <p role="alert" className="clipit-dash-note clipit-dash-note--error">
          {serverError}
        </p>
      ) : null}
      <div className="clipit-dash-actions">
        <Button type="submit" disabled={save.isPending} loading={save.isPending} loadingText="Saving...">
          Save Hiring Profile
        </Button>
      </div>
    </form>
  );
}

/**
 * The Profile tab's 'Hiring profile' (ADR 0027): what a client sees in the hire dialog, edited by its owner
 * (bio, specialties, portfolio, experience, rate, availability, services), with the points tier and whether
 * the clipper can be hired.
 */
export function HiringProfileSection({ userId }: { userId: string }) {
  const query = useQuery<HiringProfile>({ queryKey: hiringProfileKey(userId) });
  let body;
  if (query.isPending)
    body = (
      <div aria-busy="true" className="clipit-dash-stack">
        <p role="status" className="clip-sr-only">
          Loading...
        </p>
        <Skeleton className="clipit-dash-skeleton-panel" />
      </div>
    );
  else if (query.isError)
    body =
      query.error instanceof HttpError && query.error.status === 404 ? (
        <p className="clipit-dash-muted">Your hiring profile is being set up. Check back in a moment.</p>
      ) : (
        <p role="alert" className="clipit-dash-note clipit-dash-note--error">
          Your hiring profile is unavailable right now. Error: {query.error.message}
        </p>
      );
  else body = <HiringProfileForm key={query.data.updatedAt} profile={query.data} userId={userId} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Hiring profile</CardTitle>
        <CardDescription>What brands and streamers see when they hire you.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
