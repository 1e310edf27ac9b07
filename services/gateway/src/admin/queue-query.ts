import { BadRequestException } from '@nestjs/common';

/** The moderation queue's filter in the query (`?status=&platform=&flags=a,b`), as the admin list documents it. */
export const QUEUE_QUERY_DOCS = {
  status: 'pending, approved or rejected; absent: every status, pending ones first',
  platform: 'twitter, instagram, tiktok or other; absent: every platform',
  flags:
    'Comma-separated, among matched (the video matches an earlier clip), risky (the view risk is under review) and failed-checks (the guide checks warned, or the video was refused): the submissions with any of them',
} as const;

/**
 * `?status=&platform=&flags=` of the admin list, each given at most once and short; submissions, the
 * owner, decides which values exist (and answers 400 naming them).
 */
export function queueQuery(query: Record<string, unknown>): { status?: string; platform?: string; flags: string[] } {
  const one = (name: 'status' | 'platform' | 'flags'): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 64) throw new BadRequestException(`${name} must be given once, as a short text`);
    return value;
  };
  const status = one('status');
  const platform = one('platform');
  const flags = (one('flags') ?? '')
    .split(',')
    .map((flag) => flag.trim())
    .filter(Boolean);
  return { ...(status ? { status } : {}), ...(platform ? { platform } : {}), flags };
}
