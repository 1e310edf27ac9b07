import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { screen } from '@testing-library/react';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { resetSubmitClipTab, SubmitClipTab } from './submit-clip-tab.js';

let consoleError: jest.SpiedFunction<typeof console.error>;
beforeEach(() => {
  resetSubmitClipTab();
  fakeGateway();
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  globalThis.__FEDERATION__ = undefined;
  consoleError.mockRestore();
});

function FakeForm() {
  return <form aria-label="Submit your clip">the public remote's form</form>;
}

describe('the Submit New Clip tab', () => {
  it("shows the public remote's submission form, loaded through the page's federation instance", async () => {
    const loadRemote = jest.fn(async (id: string) => (id === 'clipit_public/SubmissionForm' ? { default: FakeForm } : null));
    globalThis.__FEDERATION__ = {
      __INSTANCES__: [
        { options: { remotes: [] }, loadRemote: async () => null },
        { options: { remotes: [{ name: 'clipit_public' }, { name: 'clipit_dashboard' }] }, loadRemote: loadRemote as never },
      ],
    };
    renderScreen(<SubmitClipTab />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the clip form');
    expect(await screen.findByRole('form', { name: 'Submit your clip' })).toBeVisible();
    expect(loadRemote).toHaveBeenCalledWith('clipit_public/SubmissionForm');
  });

  it('links to the submit page when the public remote is not on the page', async () => {
    renderScreen(<SubmitClipTab />);
    expect(await screen.findByRole('link', { name: 'Submit your clip on the submit page' })).toHaveAttribute('href', '/submit');
  });

  it('links to the submit page when the form cannot be loaded', async () => {
    globalThis.__FEDERATION__ = {
      __INSTANCES__: [
        { options: { remotes: [{ name: 'clipit_public' }] }, loadRemote: async () => Promise.reject(new Error('chunk 404')) },
      ],
    };
    renderScreen(<SubmitClipTab />);
    expect(await screen.findByRole('link', { name: 'Submit your clip on the submit page' })).toBeVisible();
  });
});
