import type { campaignsV1, HireRequestSnapshot } from '@clipit/contracts';
import {
  HIRE_MESSAGES,
  HIRE_RATING_MESSAGES,
  type HireRatingDraft,
  HIRE_REQUIRED_TIER,
  type HireContactMethod,
  type HireRequestDraft,
  type HireStatus,
  type HireUrgency,
} from '@clipit/field-rules';
import { secretTokenMatches } from '@clipit/service-kit';
import { dollars, MESSAGES } from './messages.js';

export type HireAction = 'accept' | 'decline' | 'complete';
export const isHireAction = (value: string): value is HireAction => value === 'accept' || value === 'decline' || value === 'complete';

/** A hire request (spec 02 §3 clipper_hires); `clipperId` is the clipper's user id, money is dollars as text. */
export interface Hire {
  id: string;
  clientUserId: string | null;
  clipperId: string;
  serviceId: string | null;
  clientName: string;
  clientEmail: string;
  projectDescription: string;
  budget: string | null;
  urgency: HireUrgency;
  preferredContact: HireContactMethod;
  contactInfo: string;
  status: HireStatus;
  clientRating: number | null;
  clientReview: string | null;
  clipperNotes: string | null;
  respondedAt: Date | null;
  completedAt: Date | null;
  /** SHA-256 (hex) of the token the client rates with; null for requests stored before ratings. */
  ratingTokenHash: string | null;
  ratedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the hire gate needs to know of the clipper. */
export interface HireTarget {
  userId: string;
  clipperTier: string;
  isAvailable: string;
}

/** A refusal: its gRPC kind and its words. */
export type Refusal = { kind: 'forbidden' | 'invalid' | 'failedPrecondition'; message: string };

/**
 * Whether `clientUserId` may hire this clipper (ADR 0027), in the order the contract states: the gold
 * points tier, not oneself, available.
 */
export function hireRefusal(target: HireTarget, clientUserId: string | null): Refusal | null {
  if (target.clipperTier !== HIRE_REQUIRED_TIER) return { kind: 'forbidden', message: HIRE_MESSAGES.notGold };
  if (clientUserId !== null && clientUserId === target.userId) return { kind: 'invalid', message: HIRE_MESSAGES.self };
  if (target.isAvailable === 'false') return { kind: 'failedPrecondition', message: HIRE_MESSAGES.unavailable };
  return null;
}

/**
 * Whether a hire request to this clipper would be taken now, whoever sends it: the gold points tier and
 * available (the Hire Clipper button, ADR 0027). The same rule as {@link hireRefusal}, sender aside.
 */
export function canBeHired(target: Omit<HireTarget, 'userId'>): boolean {
  return target.clipperTier === HIRE_REQUIRED_TIER && target.isAvailable !== 'false';
}

/**
 * The clipper's service a request is for: a package's description (what choosing it fills in) starts with
 * the service's name and a colon ("Speed Pack: 7 clips …"); a request naming none is for no service.
 */
export function serviceFor(
  projectDescription: string,
  services: readonly { id: string; serviceName: string; isActive: boolean }[],
): string | null {
  const text = projectDescription.toLowerCase();
  const match = services.find((s) => s.isActive && text.startsWith(`${s.serviceName.toLowerCase()}:`));
  return match?.id ?? null;
}

export function newHire(
  id: string,
  clipperId: string,
  clientUserId: string | null,
  serviceId: string | null,
  draft: HireRequestDraft,
  now: Date,
  ratingTokenHash: string | null = null,
): Hire {
  return {
    id,
    clientUserId,
    clipperId,
    serviceId,
    clientName: draft.clientName,
    clientEmail: draft.clientEmail,
    projectDescription: draft.projectDescription,
    budget: draft.budget === null ? null : dollars(draft.budget),
    urgency: draft.urgency,
    preferredContact: draft.preferredContact,
    contactInfo: draft.contactInfo,
    status: 'pending',
    clientRating: null,
    clientReview: null,
    clipperNotes: null,
    respondedAt: null,
    completedAt: null,
    ratingTokenHash,
    ratedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Whether `token` is the hire's rating token (ADR 0040: the kit's secret token, 256 bits handed out once in
 * the request's answer, of which the hire keeps only the SHA-256), compared in constant time.
 */
export function isRatingToken(hire: Pick<Hire, 'ratingTokenHash'>, token: string): boolean {
  return hire.ratingTokenHash !== null && secretTokenMatches(hire.ratingTokenHash, token);
}

/**
 * The client's rating (ADR 0040), in this order so a wrong token learns nothing of the hire: the token
 * (403), rated once (409), completed (409).
 */
export function rate(hire: Hire, token: string, rating: HireRatingDraft, now: Date): { hire: Hire } | { refusal: Refusal } {
  if (!isRatingToken(hire, token)) return { refusal: { kind: 'forbidden', message: HIRE_RATING_MESSAGES.wrongToken } };
  if (hire.clientRating !== null) return { refusal: { kind: 'failedPrecondition', message: HIRE_RATING_MESSAGES.alreadyRated } };
  if (hire.status !== 'completed') return { refusal: { kind: 'failedPrecondition', message: HIRE_RATING_MESSAGES.notCompleted } };
  return { hire: { ...hire, clientRating: rating.rating, clientReview: rating.review, ratedAt: now, updatedAt: now } };
}

/**
 * The clipper's answer (ADR 0027): accept or decline a pending request, complete an accepted one; the
 * refusal's words otherwise. `notes`, when given, replace the clipper's notes.
 */
export function answer(
  hire: Hire,
  byClipper: string,
  action: HireAction,
  notes: string | undefined,
  now: Date,
): { hire: Hire } | { refusal: Refusal } {
  if (hire.clipperId !== byClipper) return { refusal: { kind: 'forbidden', message: MESSAGES.notYourHire } };
  const clipperNotes = notes === undefined ? hire.clipperNotes : notes === '' ? null : notes;
  if (action === 'complete') {
    if (hire.status !== 'accepted') return { refusal: { kind: 'failedPrecondition', message: MESSAGES.onlyAcceptedCompletes } };
    return { hire: { ...hire, status: 'completed', clipperNotes, completedAt: now, updatedAt: now } };
  }
  if (hire.status !== 'pending') return { refusal: { kind: 'failedPrecondition', message: MESSAGES.alreadyAnswered } };
  return { hire: { ...hire, status: action === 'accept' ? 'accepted' : 'declined', clipperNotes, respondedAt: now, updatedAt: now } };
}

/** What hire.responded says happened. */
export const respondedAction = (action: HireAction): 'accepted' | 'declined' | 'completed' =>
  action === 'accept' ? 'accepted' : action === 'decline' ? 'declined' : 'completed';

const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);
const opt = <T>(v: T | null): T | undefined => v ?? undefined;

export function toHireMessage(h: Hire): campaignsV1.HireRequest {
  return {
    id: h.id,
    clientUserId: opt(h.clientUserId),
    clipperId: h.clipperId,
    serviceId: opt(h.serviceId),
    clientName: h.clientName,
    clientEmail: h.clientEmail,
    projectDescription: h.projectDescription,
    budget: opt(h.budget),
    urgency: h.urgency,
    preferredContact: h.preferredContact,
    contactInfo: h.contactInfo,
    status: h.status,
    clientRating: opt(h.clientRating),
    clientReview: opt(h.clientReview),
    clipperNotes: opt(h.clipperNotes),
    respondedAt: iso(h.respondedAt),
    completedAt: iso(h.completedAt),
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}

export function toHireSnapshot(h: Hire): HireRequestSnapshot {
  return {
    id: h.id,
    clientUserId: h.clientUserId,
    clipperId: h.clipperId,
    serviceId: h.serviceId,
    clientName: h.clientName,
    clientEmail: h.clientEmail,
    projectDescription: h.projectDescription,
    budget: h.budget,
    urgency: h.urgency,
    preferredContact: h.preferredContact,
    contactInfo: h.contactInfo,
    status: h.status,
    clipperNotes: h.clipperNotes,
    respondedAt: h.respondedAt?.toISOString() ?? null,
    completedAt: h.completedAt?.toISOString() ?? null,
    createdAt: h.createdAt.toISOString(),
    updatedAt: h.updatedAt.toISOString(),
  };
}
