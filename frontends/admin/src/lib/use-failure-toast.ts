import { useToast } from '@clipit/ui';
import { useEffect } from 'react';
import { failureText, isUnauthorized } from './admin-api.js';

/**
 * One failure toast per failed load of an admin list (spec 02 §8: 'Failed to fetch submissions', …),
 * with the server's text under it. A 401 says nothing here: it ends the session and the gate says why.
 */
export function useFailureToast(error: Error | null, errorUpdatedAt: number, title: string): void {
  const { toast } = useToast();
  useEffect(() => {
    if (!error || isUnauthorized(error)) return;
    toast({ title, description: failureText(error, title), variant: 'destructive' });
    // Once per failure (errorUpdatedAt), not on every render that still holds it.
  }, [errorUpdatedAt]);
}
