import { Button, Dialog, DialogDescription, DialogFooter, DialogTitle, Input, useToast } from '@clipit/ui';
import { apiJson, type ResetPasswordResponse } from '@clipit/web-api';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { resetPasswordBody } from '../lib/auth-payload.js';
import { useCheckedForm } from '../lib/use-checked-form.js';
import { emptyResetForm, validateReset, type ResetForm } from '../lib/validation.js';

export interface ResetPasswordDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Forgot Password': twitter handle, email, new password and its confirmation (spec 01 §2, §5). */
export function ResetPasswordDialog({ open, onOpenChange }: ResetPasswordDialogProps) {
  const { toast } = useToast();
  const { form, field, check, reset: clearForm } = useCheckedForm<ResetForm>(emptyResetForm, validateReset);

  const clearAndClose = () => {
    clearForm();
    onOpenChange(false);
  };

  const reset = useMutation({
    // A reset request hashes the new password too: tried again after a busy 503's Retry-After (ADR 0044).
    mutationFn: (body: ReturnType<typeof resetPasswordBody>) =>
      apiJson<ResetPasswordResponse>('POST', '/api/auth/reset-password', body, { retryBusy: true }),
    onSuccess: (answer) => {
      // Nothing is reset yet: the link mailed to the account applies it (ADR 0031).
      toast({ title: 'Check your email', description: answer.message, variant: 'success' });
      clearAndClose();
    },
    onError: (error: Error) => {
      toast({ title: 'Failed to reset password', description: error.message, variant: 'destructive' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check()) reset.mutate(resetPasswordBody(form));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) onOpenChange(true);
        else if (!reset.isPending) clearAndClose();
      }}
    >
      <DialogTitle>Reset Password</DialogTitle>
      <DialogDescription>Enter your Twitter handle and email to set a new password.</DialogDescription>
      <form className="clipit-form" noValidate onSubmit={submit}>
        <Input label="Twitter Handle" name="twitterHandle" autoComplete="username" placeholder="@yourhandle" {...field('twitterHandle')} />
        <Input label="Email" name="email" type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
        <Input
          label="New Password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          passwordToggle
          {...field('newPassword')}
        />
        <Input
          label="Confirm New Password"
          name="confirmNewPassword"
          type="password"
          autoComplete="new-password"
          passwordToggle
          {...field('confirmPassword')}
        />
        <DialogFooter>
          <Button variant="outline" onClick={clearAndClose} disabled={reset.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={reset.isPending} loadingText="Resetting...">
            Reset Password
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
