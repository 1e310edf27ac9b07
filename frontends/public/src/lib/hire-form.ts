// The hire dialog's form (spec 02 §2.7, §5 "Hire request", §7, §8): what the fields hold as typed, how
// choosing a package fills them, the rules (@clipit/field-rules' checkHireRequest, which the gateway and
// the campaigns service apply too) and what a failed request's toast says.
import {
  checkHireRequest,
  HIRE_DEFAULTS,
  HIRE_MESSAGES,
  packageFill,
  type HirePackageId,
  type HireRequestDraft,
} from '@clipit/field-rules';
import { HttpError, type SendHireRequest } from '@clipit/web-api';
import type { Errors } from './validation.js';

/** The fields as typed: every one a string (an empty budget is sent as null). */
export interface HireForm {
  clientName: string;
  clientEmail: string;
  projectDescription: string;
  budget: string;
  urgency: string;
  preferredContact: string;
  contactInfo: string;
}

export const emptyHireForm: HireForm = {
  clientName: '',
  clientEmail: '',
  projectDescription: '',
  budget: '',
  urgency: HIRE_DEFAULTS.urgency,
  preferredContact: HIRE_DEFAULTS.preferredContact,
  contactInfo: '',
};

/** Each field's message, beside the field, before anything is sent. */
export function validateHireForm(form: HireForm): Errors<keyof HireForm> {
  const checked = checkHireRequest(form);
  return checked.ok ? {} : checked.errors;
}

/** What choosing a package puts in the budget and description fields (Viral Marketing: no budget). */
export function packageFields(choice: HirePackageId): Pick<HireForm, 'budget' | 'projectDescription'> {
  const { budget, projectDescription } = packageFill(choice);
  return { budget: budget === null ? '' : String(budget), projectDescription };
}

/** The request body of POST /api/clippers/{clipperId}/hire: exactly the spec's fields. */
export function hireRequestBody(clipperId: string, draft: HireRequestDraft): SendHireRequest {
  return {
    clipperId,
    clientName: draft.clientName,
    clientEmail: draft.clientEmail,
    projectDescription: draft.projectDescription,
    budget: draft.budget,
    urgency: draft.urgency,
    preferredContact: draft.preferredContact,
    contactInfo: draft.contactInfo,
  };
}

/** A failed request's toast text: the server's words, or the spec's fallback when it sent none. */
export function hireFailureText(error: Error): string {
  return error instanceof HttpError && error.text.trim() !== '' ? error.text : HIRE_MESSAGES.failed;
}
