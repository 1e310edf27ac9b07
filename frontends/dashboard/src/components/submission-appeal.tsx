import { APPEAL_TEXT_MAX, checkAppealText, type AppealKind } from '@clipit/field-rules';
import { Badge, Button, Dialog, DialogDescription, DialogFooter, DialogTitle, Textarea } from '@clipit/ui';
import { apiJson, HttpError, type ApiAnswer } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

// Appeals (ADR 0051): a clipper appeals the rejection of their clip or the hold on its earning, once each,
// and reads the admin's outcome here. The rules and words are @clipit/field-rules' and the owner's.

export type MyAppeals = ApiAnswer<'/api/appeals/mine', 'get'>;
export type Appeal = MyAppeals['appeals'][number];
type EarningsPage = ApiAnswer<'/api/earnings', 'get'>;

/** The clipper's appeals and the earnings that may be held, one page each (their most: 200 and 100). */
export const myAppealsKey = ['/api/appeals/mine?limit=200'] as const;
export const heldEarningsKey = ['/api/earnings?limit=100'] as const;

const KIND_WORDS: Record<AppealKind, { action: string; title: string; description: string }> = {
  rejection: {
    action: 'Appeal',
    title: 'Appeal the rejection',
    description: 'Say why this clip should be approved. An admin reads it and decides; you can appeal a rejection once.',
  },
  hold: {
    action: 'Appeal',
    title: 'Appeal the held earning',
    description: 'Say why this earning should be paid. An admin reads it and decides; you can appeal a hold once.',
  },
};

/**
 * What each clip may appeal and how its appeal stands, by submission id: the appeals, and which clips have an
 * earning held now. While either list has not answered, nothing is offered.
 */
export function useAppeals(enabled: boolean): { appeals: ReadonlyMap<string, Appeal[]>; held: ReadonlySet<string> } {
  const mine = useQuery<MyAppeals>({ queryKey: myAppealsKey, enabled, refetchOnMount: 'always' });
  const earnings = useQuery<EarningsPage>({ queryKey: heldEarningsKey, enabled, refetchOnMount: 'always' });
  const appeals = new Map<string, Appeal[]>();
  for (const appeal of mine.data?.appeals ?? []) appeals.set(appeal.submissionId, [...(appeals.get(appeal.submissionId) ?? []), appeal]);
  const held = new Set((earnings.data?.earnings ?? []).filter((e) => e.status === 'held').map((e) => e.submissionId));
  return { appeals, held };
}

/** The state of an appeal in words: pending, or the outcome with the admin's reason. */
export function appealState(appeal: Pick<Appeal, 'status' | 'decisionReason'>): string {
  switch (appeal.status) {
    case 'pending':
      return 'Appeal pending';
    case 'upheld':
      return `Appeal upheld: ${appeal.decisionReason ?? ''}`;
    case 'overturned':
      return `Appeal overturned: ${appeal.decisionReason ?? ''}`;
  }
}

/**
 * A clip's appeal: each appeal's state, and "Appeal" while the clip is rejected or its earning held and that
 * kind was not appealed yet.
 */
export function SubmissionAppeal({
  submission,
  appeals,
  held,
}: {
  submission: { id: string; name: string; status: 'pending' | 'approved' | 'rejected' };
  appeals: readonly Appeal[];
  held: boolean;
}) {
  const [open, setOpen] = useState(false);
  const kind: AppealKind | null = submission.status === 'rejected' ? 'rejection' : submission.status === 'approved' && held ? 'hold' : null;
  const canAppeal = kind !== null && !appeals.some((a) => a.kind === kind);
  if (appeals.length === 0 && !canAppeal) return null;
  return (
    <div className="clipit-dash-appeal">
      {appeals.map((appeal) => (
        <p key={appeal.id} className="clipit-dash-appeal__state" role="status">
          <Badge variant={appeal.status === 'pending' ? 'warning' : appeal.status === 'overturned' ? 'success' : 'destructive'}>
            {appeal.kind === 'hold' ? 'Held earning' : 'Rejection'}
          </Badge>{' '}
          {appealState(appeal)}
        </p>
      ))}
      {canAppeal && kind ? (
        <>
          <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Appeal ${submission.name}`}>
            {KIND_WORDS[kind].action}
          </Button>
          <Dialog open={open} onOpenChange={(next) => setOpen(next)} className="clipit-dash-dialog">
            {open ? (
              <AppealForm submissionId={submission.id} submissionName={submission.name} kind={kind} onDone={() => setOpen(false)} />
            ) : null}
          </Dialog>
        </>
      ) : null}
    </div>
  );
}

/** The appeal's text with a live count to 1,000; the server's refusal (400, 409) is shown as it says it. */
export function AppealForm({
  submissionId,
  submissionName,
  kind,
  onDone,
}: {
  submissionId: string;
  submissionName: string;
  kind: AppealKind;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const length = text.trim().length;
  const words = KIND_WORDS[kind];

  const file = useMutation({
    mutationFn: (checked: string) =>
      apiJson<Appeal>('POST', `/api/submissions/${encodeURIComponent(submissionId)}/appeal`, { text: checked }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: myAppealsKey });
      onDone();
    },
    onError: (err) => setError(err instanceof HttpError ? err.text : 'The appeal could not be sent. Please try again.'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAppealText(text);
    if (checked.error !== undefined) {
      setError(checked.error);
      return;
    }
    file.mutate(checked.text);
  };

  return (
    <form noValidate onSubmit={submit} aria-label={words.title}>
      <DialogTitle>{words.title}</DialogTitle>
      <DialogDescription>
        “{submissionName}”: {words.description}
      </DialogDescription>
      <Textarea
        label="Why should the decision change?"
        name="text"
        rows={6}
        value={text}
        error={error}
        description={
          <span className={length > APPEAL_TEXT_MAX ? 'clipit-dash-count clipit-dash-count--over' : 'clipit-dash-count'} aria-live="polite">
            {length.toLocaleString('en-US')}/{APPEAL_TEXT_MAX.toLocaleString('en-US')} characters
          </span>
        }
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
      />
      <DialogFooter>
        <Button variant="ghost" onClick={onDone} disabled={file.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={file.isPending || length > APPEAL_TEXT_MAX} loading={file.isPending} loadingText="Sending...">
          Send appeal
        </Button>
      </DialogFooter>
    </form>
  );
}
