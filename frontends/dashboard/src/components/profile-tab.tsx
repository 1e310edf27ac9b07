import { DISPLAY_NAME_MAX, PLACEHOLDER_MESSAGES } from '@clipit/field-rules';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, useToast } from '@clipit/ui';
import { apiJson, type ApiRequestBody, type CurrentUser } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { refreshAfterProfileChange, type Dashboard } from '../lib/dashboard-data.js';
import {
  BANNER_HINT,
  IMAGE_ACCEPT,
  ImageUploadError,
  uploadPercent,
  uploadProfileImage,
  type ImageKind,
  type UploadProgress,
} from '../lib/profile-images.js';

function UploadBar({ label, progress }: { label: string; progress: UploadProgress }) {
  const percent = uploadPercent(progress);
  return (
    <div className="clipit-dash-stack clipit-dash-stack--tight" aria-live="polite">
      <div className="clipit-dash-progress-row">
        <span>{label}</span>
        <span>{percent}%</span>
      </div>
      <div
        className="clipit-dash-progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="clipit-dash-progress__bar" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** One image's upload: the mutation, its progress and its toasts. */
function useImageUpload(kind: ImageKind, userId: string, successTitle: string) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: (file: File | null) => uploadProfileImage(kind, file, setProgress),
    onSuccess: async () => {
      toast({ title: successTitle, variant: 'success' });
      await refreshAfterProfileChange(queryClient, userId);
    },
    onError: (error: Error) =>
      error instanceof ImageUploadError
        ? toast({ title: error.title, description: error.message, variant: 'destructive' })
        : toast({
            title: kind === 'banner' ? 'Failed to upload banner image' : 'Failed to upload profile picture',
            description: error.message,
            variant: 'destructive',
          }),
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

/** What the profile form shows of its owner: the dashboard's user (a clipper's) or the signed-in user (a streamer's). */
export type ProfileOwner = Pick<
  Dashboard['user'],
  'id' | 'displayName' | 'twitterUsername' | 'email' | 'profileImageUrl' | 'bannerImageUrl'
>;

/**
 * The Profile tab (spec 02 §2.6, §5, §8): display name, profile picture, banner; the handle and email
 * read-only. Both dashboards show it: the clipper's and the streamer's.
 */
export function ProfileTab({ user }: { user: ProfileOwner }) {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const current = user.displayName ?? '';
  const [displayName, setDisplayName] = useState(current);
  const [nameError, setNameError] = useState<string | undefined>();
  const [banner, setBanner] = useState<File | null>(null);
  const bannerInput = useRef<HTMLInputElement>(null);
  const bannerHintId = useId();

  const saveName = useMutation({
    mutationFn: (name: string) =>
      apiJson<CurrentUser>('POST', '/api/user/update-profile', { displayName: name } satisfies ApiRequestBody<
        '/api/user/update-profile',
        'post'
      >),
    onSuccess: async () => {
      toast({ title: 'Profile updated!', description: 'Your profile has been updated successfully.', variant: 'success' });
      await refreshAfterProfileChange(queryClient, user.id);
    },
    onError: (error: Error) => toast({ title: 'Failed to update profile', description: error.message, variant: 'destructive' }),
  });
  const picture = useImageUpload('profile', user.id, 'Profile updated!');
  const bannerUpload = useImageUpload('banner', user.id, 'Banner updated!');

  const trimmed = displayName.trim();
  const changed = trimmed !== current.trim();

  const submitName = (event: FormEvent) => {
    event.preventDefault();
    // Spec 02 §5: the display name is sent only when it changed.
    if (!changed || saveName.isPending) return;
    if (trimmed === '') {
      setNameError(PLACEHOLDER_MESSAGES.displayNameRequired);
      return;
    }
    saveName.mutate(trimmed);
  };

  const choosePicture = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (file) picture.mutate(file);
  };

  const submitBanner = (event: FormEvent) => {
    event.preventDefault();
    bannerUpload.mutate(banner, {
      onSuccess: () => {
        setBanner(null);
        if (bannerInput.current) bannerInput.current.value = '';
      },
    });
  };

  return (
    <div className="clipit-dash-grid clipit-dash-grid--2">
      <Card>
        <CardHeader>
          <CardTitle level={2}>Profile</CardTitle>
          <CardDescription>How you appear on CLIP IT.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="clipit-dash-form" onSubmit={submitName} noValidate>
            <Input
              label="Display Name"
              name="displayName"
              value={displayName}
              maxLength={DISPLAY_NAME_MAX}
              autoComplete="nickname"
              error={nameError}
              onChange={(event) => {
                setDisplayName(event.target.value);
                setNameError(undefined);
              }}
            />
            <Input
              label="Twitter Handle"
              name="twitterUsername"
              value={user.twitterUsername ? `@${user.twitterUsername}` : 'Not connected'}
              readOnly
              description="Set by your X account."
            />
            <Input label="Email" name="email" type="email" value={user.email ?? 'No email on file'} readOnly />
            <div className="clipit-dash-actions">
              <Button type="submit" disabled={!changed} loading={saveName.isPending} loadingText="Saving...">
                Save Profile
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle level={2}>Images</CardTitle>
          <CardDescription>Image files only (PNG, JPEG, GIF or WebP).</CardDescription>
        </CardHeader>
        <CardContent className="clipit-dash-stack clipit-dash-stack--wide">
          <div className="clipit-dash-stack">
            <div className="clipit-dash-image-row">
              {user.profileImageUrl ? (
                <img
                  className="clipit-dash-avatar clipit-dash-avatar--sm"
                  src={user.profileImageUrl}
                  alt="Your current profile picture"
                  width={48}
                  height={48}
                />
              ) : null}
              <div className="clip-field">
                <label className="clip-field__label" htmlFor="dash-profile-picture">
                  Profile Picture
                </label>
                <input
                  id="dash-profile-picture"
                  className="clipit-dash-file"
                  type="file"
                  accept={IMAGE_ACCEPT}
                  disabled={picture.isPending}
                  onChange={choosePicture}
                />
              </div>
            </div>
            {picture.progress ? <UploadBar label="Uploading profile picture" progress={picture.progress} /> : null}
          </div>

          <form className="clipit-dash-stack" onSubmit={submitBanner} noValidate>
            {user.bannerImageUrl ? (
              <img className="clipit-dash-banner-preview" src={user.bannerImageUrl} alt="Your current banner" width={1500} height={500} />
            ) : null}
            <div className="clip-field">
              <label className="clip-field__label" htmlFor="dash-banner">
                Banner Image
              </label>
              <input
                id="dash-banner"
                ref={bannerInput}
                className="clipit-dash-file"
                type="file"
                accept={IMAGE_ACCEPT}
                aria-describedby={bannerHintId}
                disabled={bannerUpload.isPending}
                onChange={(event) => setBanner(event.target.files?.[0] ?? null)}
              />
              <p id={bannerHintId} className="clip-field__description">
                {BANNER_HINT}
              </p>
            </div>
            {bannerUpload.progress ? <UploadBar label="Uploading banner" progress={bannerUpload.progress} /> : null}
            <div className="clipit-dash-actions">
              <Button type="submit" variant="secondary" loading={bannerUpload.isPending} loadingText="Uploading...">
                Upload Banner
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
