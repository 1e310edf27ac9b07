// A clipper's hiring profile (GET /api/clippers/{id}/profile, campaigns): read by the hire dialog and, for
// its rating, by the clipper's profile page, under one query key so the dialog opens on what the page read.
import { apiJson, type HiringProfile } from '@clipit/web-api';

export const hiringProfileKey = (clipperId: string) => ['/api/clippers', clipperId, 'profile'] as const;

export const fetchHiringProfile = (clipperId: string): Promise<HiringProfile> =>
  apiJson<HiringProfile>('GET', `/api/clippers/${encodeURIComponent(clipperId)}/profile`);
