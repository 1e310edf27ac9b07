import { Button, Dialog, DialogDescription, DialogFooter, DialogTitle, Textarea } from '@clipit/ui';
import { useState, type FormEvent } from 'react';
import { checkRejectReason, REJECT_REASON_MAX } from '@clipit/field-rules';

export interface RejectDialogProps {
  open: boolean;
  submissionName: string;
  pending: boolean;
  /** What is rejected, as the title and button name it ('Submission' unless given). */
  noun?: string;
  /** Who is shown the reason ('clipper' unless given). */
  audience?: string;
  onOpenChange: (open: boolean) => void;
  /** The reason as sent (trimmed), or undefined for none. */
  onConfirm: (reason: string | undefined) => void;
}

/** Asks for an optional reason (at most 500 characters, as the gateway checks it) before rejecting. */
export function RejectDialog({
  open,
  submissionName,
  pending,
  noun = 'Submission',
  audience = 'clipper',
  onOpenChange,
  onConfirm,
}: RejectDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} className="clipit-admin-dialog">
      {/* Mounted per opening: a fresh, empty reason each time. */}
      <RejectForm
        submissionName={submissionName}
        pending={pending}
        noun={noun}
        audience={audience}
        onCancel={() => onOpenChange(false)}
        onConfirm={onConfirm}
      />
    </Dialog>
  );
}

function RejectForm({
  submissionName,
  pending,
  noun,
  audience,
  onCancel,
  onConfirm,
}: Pick<RejectDialogProps, 'submissionName' | 'pending' | 'onConfirm'> & { noun: string; audience: string; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const length = reason.trim().length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkRejectReason(reason);
    if (checked.error) {
      setError(checked.error);
      return;
    }
    onConfirm(checked.reason);
  };

  return (
    <form noValidate onSubmit={submit} className="clipit-admin-form" aria-label={`Reject ${noun.toLowerCase()}`}>
      <DialogTitle>Reject {noun}</DialogTitle>
      <DialogDescription>
        Reject “{submissionName}”? The {audience} sees the reason, if you give one.
      </DialogDescription>
      <Textarea
        label="Reason (optional)"
        name="reason"
        rows={4}
        value={reason}
        error={error}
        description={
          <span className={length > REJECT_REASON_MAX ? 'clipit-admin-count clipit-admin-count--over' : 'clipit-admin-count'}>
            {length}/{REJECT_REASON_MAX} characters
          </span>
        }
        onChange={(event) => {
          setReason(event.target.value);
          setError(undefined);
        }}
      />
      <DialogFooter>
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={pending} loading={pending} loadingText="Rejecting...">
          Reject {noun}
        </Button>
      </DialogFooter>
    </form>
  );
}
