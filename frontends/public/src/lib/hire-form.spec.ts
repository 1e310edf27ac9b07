import { describe, expect, it } from '@jest/globals';
import { HIRE_MESSAGES, HIRE_PACKAGES } from '@clipit/field-rules';
import { HttpError } from '@clipit/web-api';
import { emptyHireForm, hireFailureText, packageFields, validateHireForm } from './hire-form.js';

describe('the hire form', () => {
  it('starts empty, with urgency medium and contact by email', () => {
    expect(emptyHireForm).toEqual({
      clientName: '',
      clientEmail: '',
      projectDescription: '',
      budget: '',
      urgency: 'medium',
      preferredContact: 'email',
      contactInfo: '',
    });
  });

  it('fills the budget and the description from a package; Viral Marketing leaves the budget empty', () => {
    expect(packageFields('speed')).toEqual({ budget: '40', projectDescription: HIRE_PACKAGES[0].description });
    expect(packageFields('growth')).toEqual({ budget: '100', projectDescription: HIRE_PACKAGES[1].description });
    expect(packageFields('viral')).toEqual({ budget: '', projectDescription: HIRE_PACKAGES[2].description });
  });

  it('gives each broken field its message, and none for a valid form', () => {
    expect(validateHireForm(emptyHireForm)).toEqual({
      clientName: HIRE_MESSAGES.clientNameShort,
      clientEmail: HIRE_MESSAGES.clientEmail,
      projectDescription: HIRE_MESSAGES.projectDescriptionShort,
      contactInfo: HIRE_MESSAGES.contactInfoRequired,
    });
    expect(
      validateHireForm({
        ...emptyHireForm,
        clientName: 'Bo',
        clientEmail: 'bo@example.com',
        ...packageFields('speed'),
        contactInfo: '@bo',
      }),
    ).toEqual({});
  });

  it('toasts the server’s words, else the spec’s fallback', () => {
    expect(hireFailureText(new HttpError(409, HIRE_MESSAGES.unavailable))).toBe(HIRE_MESSAGES.unavailable);
    expect(hireFailureText(new HttpError(502, ' '))).toBe(HIRE_MESSAGES.failed);
    expect(hireFailureText(new TypeError('Failed to fetch'))).toBe(HIRE_MESSAGES.failed);
  });
});
