import {
  CAMPAIGN_AUDIENCE_CLAIM,
  CAMPAIGN_LIMITS,
  CAMPAIGN_MIN_BUDGET_USD,
  CAMPAIGN_MIN_VIEWS,
  CAMPAIGN_REVIEW_HOURS,
  campaignPrice,
  checkCampaign,
  CPM_PRICE_USD,
  formatUsd,
  type CampaignField,
} from '@clipit/field-rules';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatDate,
  Input,
  Textarea,
  useToast,
} from '@clipit/ui';
import { apiJson, type CampaignSubmitted, type CpmCampaign, type CpmCampaignsPage, type SubmitCampaignRequest } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  budgetFieldFor,
  CAMPAIGN_FORM_DEFAULTS,
  CAMPAIGN_STATUS,
  campaignsKey,
  deliveredPercent,
  serverText,
  typedNumber,
  viewsFieldFor,
  type CampaignFormValues,
} from '../lib/campaigns-data.js';
import { ListError, ListSkeleton } from './tagged-videos-tab.js';

const FAILED = 'Failed to submit campaign';
const PRICE_TEXT = `${formatUsd(CPM_PRICE_USD)} per 1,000 views`;
const MINIMUM_TEXT = `${formatUsd(CAMPAIGN_MIN_BUDGET_USD)} (${CAMPAIGN_MIN_VIEWS / 1000}K views)`;

/** The pitch, the price and the promise (spec 02 §2.5, §9). */
function Pitch() {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Promote your stream with CPM campaigns</CardTitle>
        <CardDescription>
          Our clippers turn your stream into short clips and post them where crypto traders watch. You pay only for the views you buy.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="clipit-dash-facts">
          <div>
            <dt>Price</dt>
            <dd>{PRICE_TEXT}</dd>
          </div>
          <div>
            <dt>Minimum campaign</dt>
            <dd>{MINIMUM_TEXT}</dd>
          </div>
          <div>
            <dt>Audience</dt>
            <dd>{CAMPAIGN_AUDIENCE_CLAIM}</dd>
          </div>
          <div>
            <dt>Review</dt>
            <dd>Our team reviews every campaign within {CAMPAIGN_REVIEW_HOURS} hours.</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

/** The campaign form (spec 02 §2.5, §5; ADR 0027): the budget follows the views, every rule beside its field. */
function CampaignForm() {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<CampaignFormValues>(CAMPAIGN_FORM_DEFAULTS);
  // A field's message shows once the field was left, or after a submit.
  const [shown, setShown] = useState<Partial<Record<CampaignField, boolean>>>({});
  const [attempted, setAttempted] = useState(false);

  const check = checkCampaign(values, 'form');
  const errorOf = (field: CampaignField) => (check.ok || !(attempted || shown[field]) ? undefined : check.errors[field]);

  const submit = useMutation({
    mutationFn: (body: SubmitCampaignRequest) => apiJson<CampaignSubmitted>('POST', '/api/cpm-campaigns', body),
    onSuccess: async (answer) => {
      toast({ title: answer.message, variant: 'success' });
      setValues(CAMPAIGN_FORM_DEFAULTS);
      setShown({});
      setAttempted(false);
      await queryClient.invalidateQueries({ queryKey: campaignsKey });
    },
    onError: (error: Error) => toast({ title: 'Error', description: serverText(error, FAILED), variant: 'destructive' }),
  });

  const set = (field: keyof CampaignFormValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const leave = (field: CampaignField) => () => setShown((s) => ({ ...s, [field]: true }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    setAttempted(true);
    if (!check.ok) return;
    submit.mutate(check.value);
  };

  const views = typedNumber(values.targetViews);
  const ruleText =
    views !== undefined && views >= CAMPAIGN_MIN_VIEWS
      ? `${PRICE_TEXT}: ${Math.floor(views).toLocaleString('en-US')} views cost ${formatUsd(campaignPrice(Math.floor(views)))}.`
      : `${PRICE_TEXT}; at least ${CAMPAIGN_MIN_VIEWS.toLocaleString('en-US')} views (${formatUsd(CAMPAIGN_MIN_BUDGET_USD)}).`;

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>Submit a campaign</CardTitle>
        <CardDescription>Tell us what to promote. The budget follows the views you buy.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="clipit-dash-form" onSubmit={onSubmit} noValidate aria-label="Submit a campaign">
          <Input
            label="Campaign Title"
            name="title"
            value={values.title}
            maxLength={CAMPAIGN_LIMITS.title.max}
            error={errorOf('title')}
            onChange={(e) => set('title')(e.target.value)}
            onBlur={leave('title')}
          />
          <Textarea
            label="Description"
            name="description"
            value={values.description}
            rows={4}
            maxLength={CAMPAIGN_LIMITS.description.max}
            showCount
            description="What should the clips promote, and where should viewers go?"
            error={errorOf('description')}
            onChange={(e) => set('description')(e.target.value)}
            onBlur={leave('description')}
          />
          <div className="clipit-dash-grid clipit-dash-grid--2">
            <Input
              label="Target Views"
              name="targetViews"
              inputMode="numeric"
              value={values.targetViews}
              description={`At least ${CAMPAIGN_MIN_VIEWS.toLocaleString('en-US')} views`}
              error={errorOf('targetViews')}
              onChange={(e) => {
                const text = e.target.value;
                setValues((v) => ({ ...v, targetViews: text, budgetAmount: budgetFieldFor(text, v.budgetAmount) }));
              }}
              onBlur={leave('targetViews')}
            />
            <Input
              label="Budget (USD)"
              name="budgetAmount"
              inputMode="decimal"
              value={values.budgetAmount}
              description={ruleText}
              error={errorOf('budgetAmount')}
              onChange={(e) => {
                const text = e.target.value;
                setValues((v) => ({ ...v, budgetAmount: text, targetViews: viewsFieldFor(text, v.targetViews) }));
              }}
              onBlur={leave('budgetAmount')}
            />
          </div>
          <Input
            label="Content Link (optional)"
            name="contentLink"
            type="url"
            value={values.contentLink}
            placeholder="https://"
            description="Your channel, a stream or a post to promote."
            error={errorOf('contentLink')}
            onChange={(e) => set('contentLink')(e.target.value)}
            onBlur={leave('contentLink')}
          />
          <div className="clipit-dash-actions">
            {/* Pressing the button must not blur the field first: the field's message would appear on blur and
                push the button down before the click lands, so the press would miss it. */}
            <Button
              type="submit"
              disabled={submit.isPending}
              loading={submit.isPending}
              loadingText="Submitting..."
              onMouseDown={(event) => event.preventDefault()}
            >
              Submit Campaign
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function CampaignItem({ campaign }: { campaign: CpmCampaign }) {
  const status = CAMPAIGN_STATUS[campaign.status];
  const percent = deliveredPercent(campaign);
  const label = `Delivered views for ${campaign.title}`;
  return (
    <li className="clipit-dash-list__item clipit-dash-campaign">
      <div className="clipit-dash-list__main">
        <div className="clipit-dash-item-head">
          <h3 className="clipit-dash-list__title">{campaign.title}</h3>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <p className="clipit-dash-muted">
          {campaign.targetViews.toLocaleString('en-US')} views · {formatUsd(campaign.budgetAmount)} ·{' '}
          <time dateTime={campaign.createdAt}>{formatDate(campaign.createdAt)}</time>
        </p>
        <div className="clipit-dash-stack clipit-dash-stack--tight">
          <div className="clipit-dash-progress-row">
            <span>
              {campaign.deliveredViews.toLocaleString('en-US')} of {campaign.targetViews.toLocaleString('en-US')} views delivered
            </span>
            <span>{percent}%</span>
          </div>
          <div
            className="clipit-dash-progress"
            role="progressbar"
            aria-label={label}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div className="clipit-dash-progress__bar" style={{ width: `${percent}%` }} />
          </div>
        </div>
        {campaign.status === 'rejected' && campaign.rejectedReason ? (
          <p className="clipit-dash-reason">Reason: {campaign.rejectedReason}</p>
        ) : null}
      </div>
    </li>
  );
}

/** The streamer's own campaigns, newest first. */
function CampaignList() {
  const query = useQuery<CpmCampaignsPage>({ queryKey: campaignsKey });
  let body;
  if (query.isPending) body = <ListSkeleton rows={2} className="clipit-dash-list" />;
  else if (query.isError) body = <ListError what="Your campaigns" error={query.error} />;
  else if (query.data.campaigns.length === 0)
    body = (
      <div className="clipit-dash-empty">
        <h3 className="clipit-dash-subtitle">No campaigns yet</h3>
        <p className="clipit-dash-muted">Campaigns you submit show up here with their review status and delivered views.</p>
      </div>
    );
  else
    body = (
      <ul className="clipit-dash-list" aria-label="Your campaigns">
        {query.data.campaigns.map((campaign) => (
          <CampaignItem key={campaign.id} campaign={campaign} />
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="dash-campaigns-title" className="clipit-dash-stack">
      <h2 id="dash-campaigns-title" className="clipit-dash-subtitle">
        Your Campaigns
      </h2>
      {body}
    </section>
  );
}

/** The cpm-campaigns tab (spec 02 §2.3, §2.5, §8, §9; ADR 0027): pitch, form and the streamer's campaigns. */
export function CpmCampaignsTab() {
  return (
    <div className="clipit-dash-stack clipit-dash-stack--wide">
      <div className="clipit-dash-grid clipit-dash-grid--2">
        <Pitch />
        <CampaignForm />
      </div>
      <CampaignList />
    </div>
  );
}
