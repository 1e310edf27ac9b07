import { guideWarnings, VIDEO_LIMITS, type Problem } from '@clipit/field-rules';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  GuideChecks,
  Input,
  Select,
  Skeleton,
  Spinner,
  Textarea,
  useToast,
} from '@clipit/ui';
import { currentUserKey, HttpError, useCurrentUser, type ApiAnswer, type Submission } from '@clipit/web-api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type Ref } from 'react';
import { Link } from '@clipit/router';
import {
  ADDITIONAL_INFO_MAX,
  buildFormSubmission,
  NO_STREAMER,
  type SubmissionFormValues,
  type SubmissionPayload,
} from '../lib/clip-submission.js';
import { useVideoChoice } from '../lib/use-video-choice.js';
import { VideoField } from './video-field.js';
import {
  isFinalVideoState,
  progressText,
  submitClipWithVideo,
  uploadPercent,
  type SubmittedClip,
  type UploadProgress,
  type UploadStage,
} from '../lib/video-upload.js';

type Streamers = ApiAnswer<'/api/streamers', 'get'>;
type MySubmissions = ApiAnswer<'/api/submissions', 'get'>;

const emptyForm: SubmissionFormValues = { name: '', url: '', streamer: NO_STREAMER, additionalInfo: '' };
/** How often the video's state is read while the media worker has it, after the first seconds. */
export const VIDEO_STATE_POLL_MS = 2000;
/**
 * In its first seconds the state is read more often: a phone-ready upload plays within a second of
 * finalize (the worker remuxes it, ADR 0047), and the person is looking at the status.
 */
export const VIDEO_STATE_FIRST_POLL_MS = 500;
export const VIDEO_STATE_FIRST_POLLS_FOR_MS = 15_000;
/**
 * While GET /api/submissions/stream is open, the gateway tells the page as soon as the video's state
 * changes, and the list is read then: the poll only covers a frame lost on the way.
 */
const VIDEO_STATE_STREAMING_POLL_MS = 10_000;
const SUBMISSIONS_STREAM_PATH = '/api/submissions/stream';
const SUBMISSIONS_KEY = ['/api/submissions'] as const;

const STAGE_TEXT: Record<UploadStage, string> = {
  creating: 'Creating your submission...',
  uploading: 'Uploading video...',
  finalizing: 'Finishing the upload...',
};

const streamerLabel = (s: Streamers[number]) => s.displayName || (s.twitterUsername ? `@${s.twitterUsername}` : 'Unnamed streamer');

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** Who is submitting, on one line of fixed height, so nothing moves when the answer comes. */
function AccountLine({ loginLink }: { loginLink: Ref<HTMLAnchorElement> }) {
  const { user, isPending } = useCurrentUser();
  return (
    <div className="clipit-submit-account" aria-live="polite">
      {isPending ? (
        <Skeleton shape="text" className="clipit-submit-account__skeleton" />
      ) : user ? (
        <p>
          Submitting as <strong>{user.twitterUsername ? `@${user.twitterUsername}` : user.displayName || 'you'}</strong>
        </p>
      ) : (
        <>
          <p>
            <strong>Log in to submit</strong> your clip.
          </p>
          <Link ref={loginLink} to="/login" className="clip-btn clip-btn--outline clip-btn--sm">
            Log in
          </Link>
        </>
      )}
    </div>
  );
}

function UploadProgressBar({ stage, progress }: { stage: UploadStage; progress: UploadProgress | null }) {
  const percent = progress ? uploadPercent(progress) : 0;
  const text = progress ? progressText(progress) : undefined;
  return (
    <div className="clipit-submit-progress" aria-live="polite">
      <p className="clipit-submit-progress__stage">{STAGE_TEXT[stage]}</p>
      {stage === 'creating' ? null : (
        <>
          <div
            className="clipit-submit-progress__track"
            role="progressbar"
            aria-label="Video upload"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={text}
          >
            <div className="clipit-submit-progress__bar" style={{ transform: `scaleX(${percent / 100})` }} />
          </div>
          {text ? <p className="clipit-submit-progress__text">{text}</p> : null}
        </>
      )}
    </div>
  );
}

/**
 * The guide's checks on the processed video: what to do better in the next cut, never a refusal (the
 * moderator sees the same checks on the submission).
 */
function VideoGuideChecks({ checks }: { checks: NonNullable<Submission['guideChecks']> }) {
  const warnings = guideWarnings(checks);
  return (
    <div className="clipit-submit-guide">
      <h3 className="clipit-submit-guide__title">Guide checks</h3>
      <GuideChecks checks={checks} />
      {warnings > 0 ? (
        <p className="clipit-submit-guide__summary">
          {warnings === 1 ? '1 warning' : `${warnings} warnings`}: you can still wait for review, or submit again with a better cut.
        </p>
      ) : null}
    </div>
  );
}

/**
 * Holds GET /api/submissions/stream open while `enabled` and reads the list again whenever the gateway tells
 * of a change to the submission, and when the stream (re)opens (what changed while it was away); true while
 * it is open. The browser reconnects by itself after a dropped connection; a stream the server refused
 * (signed out, too many tabs) is left to the poll. Without EventSource, the poll alone.
 */
function useSubmissionStream(enabled: boolean, submissionId: string): boolean {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(SUBMISSIONS_STREAM_PATH, { withCredentials: true });
    const reread = () => void queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY });
    source.addEventListener('submission', (event) => {
      let id: unknown;
      try {
        id = (JSON.parse((event as MessageEvent<string>).data) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      if (id === submissionId) reread();
    });
    source.onopen = () => {
      setOpen(true);
      reread();
    };
    source.onerror = () => setOpen(false);
    return () => {
      source.close();
      setOpen(false);
    };
  }, [enabled, submissionId, queryClient]);
  return open;
}

/**
 * The video after finalize, until the media worker has said ready or refused (with its reason): read again
 * as soon as the gateway's stream tells of a change, or, without the stream, every 0.5 s for 15 s and then
 * every 2 s. Both stop then, or when this leaves the page. Once ready, the guide's checks under it (a video
 * processed before the checks existed has none).
 */
function VideoStatus({ clip }: { clip: SubmittedClip }) {
  const [shownAt] = useState(() => Date.now());
  const [settled, setSettled] = useState(() => isFinalVideoState(clip.submission.videoState));
  const streaming = useSubmissionStream(!settled, clip.submissionId);
  const mine = useQuery<MySubmissions>({
    queryKey: SUBMISSIONS_KEY,
    refetchOnMount: 'always',
    refetchInterval: (query) => {
      if (isFinalVideoState(query.state.data?.find((s) => s.id === clip.submissionId)?.videoState)) return false;
      if (streaming) return VIDEO_STATE_STREAMING_POLL_MS;
      return Date.now() - shownAt < VIDEO_STATE_FIRST_POLLS_FOR_MS ? VIDEO_STATE_FIRST_POLL_MS : VIDEO_STATE_POLL_MS;
    },
  });
  const current: Submission = mine.data?.find((s) => s.id === clip.submissionId) ?? clip.submission;
  const state = current.videoState;
  useEffect(() => {
    if (isFinalVideoState(state)) setSettled(true);
  }, [state]);
  let title: string;
  let detail: string;
  if (state === 'ready') {
    title = 'Video ready';
    detail = 'Your video is processed and waiting for review.';
  } else if (state === 'rejected' || state === 'none') {
    title = 'Video refused';
    detail = current.videoRejectedReason ?? 'The video could not be processed. Please submit the clip again with another file.';
  } else {
    title = 'Processing your video';
    detail = 'We are checking and preparing your video. This usually takes under a minute.';
  }
  return (
    <>
      <div
        className={`clipit-submit-status clipit-submit-status--${state}`}
        role="status"
        aria-label="Video status"
        data-video-state={state}
      >
        {isFinalVideoState(state) ? null : <Spinner size="sm" />}
        <div className="clipit-submit-status__text">
          <strong>{title}</strong>
          <span>{detail}</span>
        </div>
      </div>
      {state === 'ready' && current.guideChecks ? <VideoGuideChecks checks={current.guideChecks} /> : null}
    </>
  );
}

function SubmissionReceived({ clip, onAnother }: { clip: SubmittedClip; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form the person was in is gone: their focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card className="clipit-submit-card">
      <CardHeader>
        <CardTitle level={2} ref={heading} tabIndex={-1}>
          Submission Received!
        </CardTitle>
        <CardDescription>Your clip with video has been submitted for review. You can follow its video here.</CardDescription>
      </CardHeader>
      <CardContent>
        <VideoStatus clip={clip} />
      </CardContent>
      <CardFooter>
        <Button onClick={onAnother}>Submit Another Clip</Button>
      </CardFooter>
    </Card>
  );
}

/**
 * The submission form of /submit (spec 01 §2–§5, §8): title, Twitter/X post, optional streamer,
 * optional note (150 characters) and a required video, sent as create → upload URL → PUT (with a
 * progress bar) → finalize; then 'Submission Received!' follows the video until it is ready or refused.
 */
export function SubmissionForm() {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const { user, isPending: userPending } = useCurrentUser();
  const loginLink = useRef<HTMLAnchorElement>(null);
  const upload = useRef<AbortController | null>(null);
  const [form, setForm] = useState<SubmissionFormValues>(emptyForm);
  const [stage, setStage] = useState<UploadStage | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [received, setReceived] = useState<SubmittedClip | null>(null);
  const streamers = useQuery<Streamers>({ queryKey: ['/api/streamers'] });

  // Leaving the page stops an upload in flight.
  useEffect(() => () => upload.current?.abort(), []);

  const problem = (p: Problem) => toast({ title: p.title, description: p.description, variant: 'destructive' });
  const videoChoice = useVideoChoice(problem);
  const { video, checking: checkingVideo, clear: clearVideo } = videoChoice;
  const set = (name: keyof SubmissionFormValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => {
    const value = name === 'additionalInfo' ? event.target.value.slice(0, ADDITIONAL_INFO_MAX) : event.target.value;
    setForm((f) => ({ ...f, [name]: value }));
  };

  const submit = useMutation({
    mutationFn: ({ payload, file }: { payload: SubmissionPayload; file: File }) => {
      const controller = new AbortController();
      upload.current = controller;
      return submitClipWithVideo(payload, file, { onStage: setStage, onProgress: setProgress, signal: controller.signal });
    },
    onSuccess: async (clip) => {
      toast({ title: 'Submission Successful!', description: 'Your clip with video has been submitted for review!', variant: 'success' });
      setForm(emptyForm);
      clearVideo();
      setReceived(clip);
      await queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY });
    },
    onError: (error: Error) => {
      if (isAbort(error)) return;
      toast({
        title: 'Submission Failed',
        description: error.message || 'Please check your information and try again.',
        variant: 'destructive',
      });
      // The session ended meanwhile: the account line says to log in again.
      if (error.cause instanceof HttpError && error.cause.status === 401) void queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
    onSettled: () => {
      upload.current = null;
      setStage(null);
      setProgress(null);
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!userPending && !user) {
      toast({ title: 'Log in to submit', description: 'You need to be logged in to submit a clip.', variant: 'destructive' });
      loginLink.current?.focus();
      return;
    }
    const built = buildFormSubmission(form, video !== null);
    if (!built.ok) {
      problem(built.problem);
      return;
    }
    if (video) submit.mutate({ payload: built.payload, file: video });
  };

  if (received) return <SubmissionReceived clip={received} onAnother={() => setReceived(null)} />;

  const streamerOptions = [
    { value: NO_STREAMER, label: 'No streamer' },
    ...(streamers.data ?? []).map((s) => ({ value: s.id, label: streamerLabel(s) })),
  ];

  return (
    <Card className="clipit-submit-card">
      <CardHeader>
        <CardTitle level={2}>Clip Details</CardTitle>
        <CardDescription>
          Daily limit: {VIDEO_LIMITS.dailyVideoSubmissions} video submissions per day. Fields marked * are required.
        </CardDescription>
      </CardHeader>
      <CardContent className="clipit-stack">
        <AccountLine loginLink={loginLink} />
        <form className="clipit-form" noValidate onSubmit={onSubmit} aria-label="Submit Your Clip">
          <Input label="Clip Title" name="name" required placeholder="What happens in the clip?" value={form.name} onChange={set('name')} />
          <Input
            label="Twitter/X Post URL"
            name="url"
            type="url"
            required
            placeholder="https://x.com/yourhandle/status/1234567890"
            value={form.url}
            onChange={set('url')}
          />
          <Select
            label="Streamer (optional)"
            name="streamer"
            options={streamerOptions}
            value={form.streamer}
            description={streamers.isError ? 'The streamer list could not be loaded.' : undefined}
            onChange={set('streamer')}
          />
          <Textarea
            label="Additional Info (optional)"
            name="additionalInfo"
            rows={3}
            maxLength={ADDITIONAL_INFO_MAX}
            showCount
            placeholder="Anything the reviewers should know"
            value={form.additionalInfo}
            onChange={set('additionalInfo')}
          />
          <VideoField choice={videoChoice} required />
          <Button type="submit" block size="lg" loading={submit.isPending} disabled={checkingVideo} loadingText="Submitting...">
            Submit Clip
          </Button>
          {stage ? <UploadProgressBar stage={stage} progress={progress} /> : null}
        </form>
      </CardContent>
    </Card>
  );
}
