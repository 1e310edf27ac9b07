import { describe, expect, it } from '@jest/globals';
import { renderHook } from '@testing-library/react';
import { SITE_DESCRIPTION, useDocumentTitle } from './useDocumentTitle.js';

const description = () => document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

describe('useDocumentTitle', () => {
  it('sets the title and the meta description of the page shown, and follows the page', () => {
    const { rerender } = renderHook(({ title, text }: { title: string; text?: string }) => useDocumentTitle(title, text), {
      initialProps: { title: 'Login', text: 'Log in to CLIP IT.' },
    });
    expect([document.title, description()]).toEqual(['Login', 'Log in to CLIP IT.']);
    rerender({ title: 'Connect Wallet', text: 'Connect your wallet.' });
    expect([document.title, description()]).toEqual(['Connect Wallet', 'Connect your wallet.']);
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
  });

  it("uses the site's description when the page has none", () => {
    renderHook(() => useDocumentTitle('CLIP IT'));
    expect(description()).toBe(SITE_DESCRIPTION);
  });
});
