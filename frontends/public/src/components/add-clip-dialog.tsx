import type { Problem } from '@clipit/field-rules';
import type { AddClipDialogProps } from '@clipit/frontend-contracts';
import { Button, Dialog, DialogDescription, DialogFooter, DialogTitle, Input, Select, useToast } from '@clipit/ui';
import { apiJson, type Submission, type Token } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { buildSubmission, NO_STREAMER, submissionIdOf, videoUploadForm, type SubmissionPayload } from '../lib/clip-submission.js';
import { useVideoChoice } from '../lib/use-video-choice.js';
import { VideoField } from './video-field.js';
import '../styles/public.css';

const emptyForm = { name: '', url: '', streamer: NO_STREAMER };

/**
 * The add-clip dialog (spec 01 §2, §3, §5): a clip title, the Twitter/X post, an optional streamer tag
 * and an optional video (checked for type, size and duration when chosen). The shell's mobile bottom
 * bar opens it (`public/AddClipDialog`).
 */
export default function AddClipDialog({ open, onOpenChange }: AddClipDialogProps) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(emptyForm);
  const tokens = useQuery<Token[]>({ queryKey: ['/api/tokens'], enabled: open });

  const problem = (p: Problem) => toast({ title: p.title, description: p.description, variant: 'destructive' });
  const videoChoice = useVideoChoice(problem);
  const { video, checking: checkingVideo, clear: clearVideo } = videoChoice;

  const reset = () => {
    setForm(emptyForm);
    clearVideo();
  };

  const submit = useMutation({
    mutationFn: async ({ payload, file }: { payload: SubmissionPayload; file: File | null }) => {
      const created = await apiJson<Submission>('POST', '/api/submissions', payload);
      const id = submissionIdOf(created);
      if (file && id) await apiJson<Submission>('POST', '/api/submissions/upload-video', videoUploadForm(file, id));
      return created;
    },
    onSuccess: async () => {
      toast({
        title: 'Clip Submitted!',
        description: 'Your clip has been submitted and will appear in the feed soon!',
        variant: 'success',
      });
      reset();
      onOpenChange(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['/api/feed/clips'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/submissions'] }),
      ]);
    },
    onError: (error: Error) =>
      toast({
        title: 'Submission Failed',
        description: error.message || 'Please check your information and try again.',
        variant: 'destructive',
      }),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildSubmission(form);
    if (!built.ok) {
      problem(built.problem);
      return;
    }
    submit.mutate({ payload: built.payload, file: video });
  };

  const close = () => {
    if (submit.isPending) return;
    onOpenChange(false);
  };

  const streamerOptions = [
    { value: NO_STREAMER, label: 'No streamer' },
    ...(tokens.data ?? []).map((t) => ({ value: t.id, label: t.name })),
  ];

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogTitle>Add a Clip</DialogTitle>
      <DialogDescription>Share a Twitter/X post with your clip. Adding the video gets it into the feed.</DialogDescription>
      <form className="clipit-form" noValidate onSubmit={onSubmit} aria-label="Add a Clip">
        <Input
          label="Clip Title"
          name="name"
          placeholder="What happens in the clip?"
          value={form.name}
          onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
        />
        <Input
          label="Twitter/X Post URL"
          name="url"
          type="url"
          placeholder="https://x.com/yourhandle/status/1234567890"
          value={form.url}
          onChange={(e) => setForm((f) => ({ ...f, url: e.target.value }))}
        />
        <Select
          label="Streamer (optional)"
          name="streamer"
          options={streamerOptions}
          value={form.streamer}
          description={tokens.isError ? 'The streamer list could not be loaded.' : undefined}
          onChange={(e) => setForm((f) => ({ ...f, streamer: e.target.value }))}
        />
        <VideoField choice={videoChoice} required={false} />
        <DialogFooter>
          <Button variant="outline" onClick={close} disabled={submit.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={submit.isPending} disabled={submit.isPending || checkingVideo} loadingText="Submitting...">
            Submit Clip
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
