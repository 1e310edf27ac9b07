import { checkDecisionReason, DECISION_REASON_MAX } from '@clipit/field-rules';
import { Button, Dialog, DialogDescription, DialogFooter, DialogTitle, Textarea } from '@clipit/ui';
import { useState, type FormEvent } from 'react';

/** What a decision's dialog says: its title, what the decision does, its button, and the button while it runs. */
export interface DecisionWords {
  title: string;
  description: string;
  submit: string;
  pending: string;
}

/**
 * The reason of an admin decision a clipper reads (releasing or voiding a held earning, upholding or
 * overturning an appeal), in a dialog: required, at most DECISION_REASON_MAX characters counted as typed,
 * checked as the gateway and the owner check it before anything is sent.
 */
export function ReasonForm({
  words,
  submissionName,
  destructive,
  pending,
  onCancel,
  onConfirm,
}: {
  words: DecisionWords;
  submissionName: string;
  /** The decision takes something from the clipper (a void, an upheld decision): its button says so. */
  destructive: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const length = reason.trim().length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDecisionReason(reason);
    if (checked.error !== undefined) {
      setError(checked.error);
      return;
    }
    onConfirm(checked.reason);
  };

  return (
    <form noValidate onSubmit={submit} className="clipit-admin-form" aria-label={words.title}>
      <DialogTitle>{words.title}</DialogTitle>
      <DialogDescription>
        “{submissionName}”: {words.description}
      </DialogDescription>
      <Textarea
        label="Reason"
        name="reason"
        rows={4}
        value={reason}
        error={error}
        description={
          <span className={length > DECISION_REASON_MAX ? 'clipit-admin-count clipit-admin-count--over' : 'clipit-admin-count'}>
            {length}/{DECISION_REASON_MAX} characters
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
        <Button
          type="submit"
          variant={destructive ? 'destructive' : 'primary'}
          disabled={pending}
          loading={pending}
          loadingText={words.pending}
        >
          {words.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** ReasonForm in the admin's dialog, open while `words` names a decision; it stays open while the decision runs. */
export function ReasonDialog({
  words,
  onClose,
  pending,
  ...form
}: Omit<Parameters<typeof ReasonForm>[0], 'words' | 'onCancel'> & { words: DecisionWords | null; onClose: () => void }) {
  return (
    <Dialog
      open={words !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      className="clipit-admin-dialog"
    >
      {words ? <ReasonForm {...form} words={words} pending={pending} onCancel={onClose} /> : null}
    </Dialog>
  );
}
