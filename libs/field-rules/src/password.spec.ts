import { describe, expect, it } from '@jest/globals';
import { newPasswordProblem, PASSWORD_MESSAGES } from './password.js';

describe('new password', () => {
  it('is 8 to 256 characters, spaces included', () => {
    expect(newPasswordProblem('')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('1234567')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('        ')).toBeUndefined();
    expect(newPasswordProblem('12345678')).toBeUndefined();
    expect(newPasswordProblem('x'.repeat(256))).toBeUndefined();
    expect(newPasswordProblem('x'.repeat(257))).toBe('Password must be at most 256 characters');
  });

  it('has the spec messages for login and the confirmation', () => {
    expect(PASSWORD_MESSAGES.required).toBe('Password is required');
    expect(PASSWORD_MESSAGES.mismatch).toBe("Passwords don't match");
  });
});
