import { checkHireRating, HIRE_RATING_LIMITS, HIRE_RATING_MESSAGES, linkTokenFromHash, ratingSummary } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, cn, Textarea, useToast } from '@clipit/ui';
import { apiJson, HttpError, type HireRated, type RateHireRequest } from '@clipit/web-api';
import { Link, useLocation, useParams } from '@clipit/router';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import '../styles/public.css';
import '../styles/hire.css';

const STARS = [1, 2, 3, 4, 5] as const;

const failureText = (error: Error) => (error instanceof HttpError && error.text.trim() !== '' ? error.text : HIRE_RATING_MESSAGES.failed);

/**
 * /hires/{id}/rate#token=…: where the client rates a completed hire, once (ADR 0040), with the link the
 * hire dialog showed when the request was sent. One to five stars and an optional review, checked by the
 * shared rule before sending; the server's refusal (a wrong link, a hire not completed or rated already)
 * is toasted in its words, and the thanks replace the form.
 */
export default function HireRatingPage() {
  const { hireId = '' } = useParams();
  const { hash } = useLocation();
  const { toast } = useToast();
  const [token] = useState(() => linkTokenFromHash(hash));
  const [rating, setRating] = useState<number | null>(null);
  const [review, setReview] = useState('');
  const [errors, setErrors] = useState<{ rating?: string | undefined; review?: string | undefined }>({});
  const legendId = useId();
  const ratingErrorId = useId();

  const rate = useMutation({
    mutationFn: (body: RateHireRequest) => apiJson<HireRated>('POST', `/api/clipper-hires/${encodeURIComponent(hireId)}/rating`, body),
    onError: (error: Error) => toast({ title: 'Error', description: failureText(error), variant: 'destructive' }),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rate.isPending || !token) return;
    const checked = checkHireRating({ rating, review });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    rate.mutate({ token, rating: checked.value.rating, review: checked.value.review });
  };

  return (
    <div className="clipit-page clipit-page--narrow">
      <Card>
        <CardHeader>
          <CardTitle level={1}>Rate Your Hire</CardTitle>
          <CardDescription>
            How did the clipper do? Your rating shows on their profile. You can rate a hire once, after it is completed.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {!token ? (
            <p role="alert">{HIRE_RATING_MESSAGES.tokenRequired}</p>
          ) : rate.isSuccess ? (
            <div className="clipit-stack">
              <p role="status">{rate.data.message}</p>
              <p>
                The clipper’s rating is now <strong>{ratingSummary(rate.data.averageRating, rate.data.totalReviews)}</strong>.
              </p>
              <Link to="/" className="clip-btn clip-btn--outline clip-btn--lg clip-btn--block">
                Back to CLIP IT
              </Link>
            </div>
          ) : (
            <form className="clipit-form" noValidate onSubmit={onSubmit} aria-label="Rating">
              <fieldset
                className="clipit-stars"
                aria-labelledby={legendId}
                aria-describedby={errors.rating ? ratingErrorId : undefined}
                aria-invalid={errors.rating ? true : undefined}
              >
                <legend id={legendId}>Rating</legend>
                {STARS.map((stars) => (
                  <label key={stars} className={cn('clipit-star', rating !== null && stars <= rating && 'clipit-star--on')}>
                    <input
                      type="radio"
                      name="rating"
                      value={stars}
                      checked={rating === stars}
                      onChange={() => {
                        setRating(stars);
                        setErrors((e) => ({ ...e, rating: undefined }));
                      }}
                      aria-label={`${stars} ${stars === 1 ? 'star' : 'stars'}`}
                    />
                    <span aria-hidden="true">★</span>
                  </label>
                ))}
              </fieldset>
              {errors.rating ? (
                <p id={ratingErrorId} className="clip-field__error" role="alert">
                  {errors.rating}
                </p>
              ) : null}
              <Textarea
                label="Review (optional)"
                name="review"
                rows={4}
                maxLength={HIRE_RATING_LIMITS.reviewMax}
                showCount
                value={review}
                error={errors.review}
                onChange={(event) => setReview(event.target.value)}
              />
              <Button type="submit" block size="lg" loading={rate.isPending} disabled={rate.isPending} loadingText="Saving...">
                Submit Rating
              </Button>
            </form>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
