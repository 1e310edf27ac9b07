import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { CLIPPER_PROFILE_MESSAGES as M } from '@clipit/field-rules';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import type { HiringProfile } from '@clipit/web-api';
import { hiringProfileAnswer, USER_ID } from '../testing/fixtures.js';
import { HiringProfileSection } from './hiring-profile-section.js';

function campaigns(profile: HiringProfile = hiringProfileAnswer(), save?: Reply) {
  return fakeGateway((call) => {
    if (call.method === 'GET' && call.url === `/api/clippers/${USER_ID}/profile`) return { json: profile };
    if (call.method === 'PATCH' && call.url === '/api/clipper-profile')
      return (
        save ?? {
          json: {
            ...profile,
            ...(call.body as object),
            isAvailable: (call.body as { isAvailable: boolean }).isAvailable ? 'true' : 'false',
            services: profile.services,
            hourlyRate: 30,
            updatedAt: '2026-11-23T10:00:00.000Z',
          },
        }
      );
    return { status: 404, text: 'No such route' };
  });
}

const form = () => screen.findByRole('form', { name: 'Hiring profile' });

describe('the hiring profile (Profile tab, ADR 0027)', () => {
  it('shows the profile to edit, the points tier and that a gold clipper can be hired', async () => {
    campaigns();
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    const f = await form();
    expect(within(f).getByRole('textbox', { name: 'Bio' })).toHaveValue('I cut fast clips.');
    expect(within(f).getByRole('textbox', { name: 'Specialties' })).toHaveValue('Gaming, Crypto');
    expect(within(f).getByRole('textbox', { name: 'Portfolio Links' })).toHaveValue('https://x.com/adaclips');
    expect(within(f).getByRole('textbox', { name: 'Years of Experience' })).toHaveValue('2');
    expect(within(f).getByRole('textbox', { name: 'Hourly Rate (USD)' })).toHaveValue('25');
    expect(within(f).getByRole('switch', { name: 'Available for hire' })).toBeChecked();
    expect(within(f).getByText('Gold')).toBeVisible();
    expect(within(f).getByText('You can be hired: the Hire Clipper button shows on your clips.')).toBeVisible();
    const services = within(f).getByRole('list', { name: 'Your services' });
    const [speed] = within(services).getAllByRole('listitem');
    expect(within(speed!).getByRole('textbox', { name: 'Service Name' })).toHaveValue('Speed Pack');
    expect(within(speed!).getByRole('textbox', { name: 'Price (USD)' })).toHaveValue('40');
    expect(within(speed!).getByRole('textbox', { name: 'Delivery Time (hours)' })).toHaveValue('24');
    expect(within(speed!).getByRole('switch', { name: 'Offered' })).toBeChecked();
  });

  it("says 'Reach Gold to be hired' below gold", async () => {
    campaigns(hiringProfileAnswer({ clipperTier: 'silver', canBeHired: false }));
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    expect(await screen.findByText('Reach Gold to be hired')).toBeVisible();
    expect(screen.getByText('Silver')).toBeVisible();
  });

  it('says a gold clipper who is not available cannot be hired', async () => {
    campaigns(hiringProfileAnswer({ isAvailable: 'false', canBeHired: false }));
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    expect(await screen.findByText('You are not taking new work: turn on availability to be hired.')).toBeVisible();
    expect(screen.getByRole('switch', { name: 'Available for hire' })).not.toBeChecked();
  });

  it('saves the whole profile with PATCH /api/clipper-profile: the payload as sent', async () => {
    const calls = campaigns();
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    const f = await form();
    await userEvent.clear(within(f).getByRole('textbox', { name: 'Specialties' }));
    await userEvent.type(within(f).getByRole('textbox', { name: 'Specialties' }), 'Gaming, , Memes');
    await userEvent.type(within(f).getByRole('textbox', { name: 'Portfolio Links' }), '{Enter}https://tiktok.com/@ada');
    await userEvent.clear(within(f).getByRole('textbox', { name: 'Hourly Rate (USD)' }));
    await userEvent.type(within(f).getByRole('textbox', { name: 'Hourly Rate (USD)' }), '30');
    await userEvent.click(within(f).getByRole('switch', { name: 'Available for hire' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Add Service' }));
    const services = within(f).getAllByRole('listitem');
    const added = services[1]!;
    await userEvent.type(within(added).getByRole('textbox', { name: 'Service Name' }), 'Viral Marketing');
    await userEvent.type(within(added).getByRole('textbox', { name: 'Service Description' }), 'Booked on a call');
    await userEvent.click(within(services[0]!).getByRole('switch', { name: 'Offered' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Save Hiring Profile' }));
    expect(await screen.findByText('Hiring profile updated!')).toBeVisible();
    expect(calls.writes()).toEqual([
      {
        method: 'PATCH',
        url: '/api/clipper-profile',
        body: {
          bio: 'I cut fast clips.',
          specialties: ['Gaming', 'Memes'],
          portfolioUrls: ['https://x.com/adaclips', 'https://tiktok.com/@ada'],
          yearsExperience: 2,
          hourlyRate: 30,
          isAvailable: false,
          services: [
            { serviceName: 'Speed Pack', description: '7 clips in 24 hours', basePrice: 40, deliveryTimeHours: 24, isActive: false },
            { serviceName: 'Viral Marketing', description: 'Booked on a call', basePrice: null, deliveryTimeHours: null, isActive: true },
          ],
        },
      },
    ]);
  });

  it('removes a service, and checks numbers and names before sending', async () => {
    const calls = campaigns();
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    const f = await form();
    await userEvent.type(within(f).getByRole('textbox', { name: 'Years of Experience' }), '.5');
    await userEvent.click(within(f).getByRole('button', { name: 'Add Service' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Save Hiring Profile' }));
    // @clipit/field-rules' words, the ones the campaigns service answers with.
    expect(within(f).getByRole('textbox', { name: 'Years of Experience' })).toHaveAccessibleDescription(M.yearsWhole);
    expect(M.yearsWhole).toBe('Years of experience must be a whole number');
    expect(within(f).getAllByRole('textbox', { name: 'Service Name' })[1]).toHaveAccessibleDescription('Each service needs a name');
    expect(calls.writes()).toEqual([]);

    await userEvent.clear(within(f).getByRole('textbox', { name: 'Years of Experience' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Remove service 2' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Remove Speed Pack' }));
    await userEvent.click(within(f).getByRole('button', { name: 'Save Hiring Profile' }));
    await waitFor(() => expect(calls.writes()).toHaveLength(1));
    expect(calls.writes()[0]!.body).toMatchObject({ yearsExperience: null, services: [] });
  });

  it('checks every field by the rules the campaigns service applies, each message beside its field, before sending', async () => {
    const calls = campaigns();
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    const f = await form();
    const box = (name: string) => within(f).getByRole('textbox', { name });
    await userEvent.type(box('Portfolio Links'), '{Enter}ftp://clips.example/reel');
    await userEvent.clear(box('Hourly Rate (USD)'));
    await userEvent.type(box('Hourly Rate (USD)'), '-5');
    await userEvent.clear(box('Years of Experience'));
    await userEvent.type(box('Years of Experience'), '61');
    await userEvent.type(box('Specialties'), `, ${'x'.repeat(301)}`);
    const speed = within(f).getByRole('listitem', { name: 'Speed Pack' });
    await userEvent.clear(within(speed).getByRole('textbox', { name: 'Price (USD)' }));
    await userEvent.type(within(speed).getByRole('textbox', { name: 'Price (USD)' }), '40.005');
    await userEvent.click(within(f).getByRole('button', { name: 'Save Hiring Profile' }));

    expect(box('Portfolio Links')).toHaveAccessibleDescription(expect.stringContaining('Each portfolio link must be a valid http(s) URL'));
    expect(box('Hourly Rate (USD)')).toHaveAccessibleDescription('Hourly rate cannot be negative');
    expect(box('Years of Experience')).toHaveAccessibleDescription('Years of experience must be between 0 and 60');
    expect(box('Specialties')).toHaveAccessibleDescription(expect.stringContaining('Each specialty must be at most 300 characters'));
    expect(within(speed).getByRole('textbox', { name: 'Price (USD)' })).toHaveAccessibleDescription(
      expect.stringContaining('Service price must be a number of dollars'),
    );
    expect(calls.writes()).toEqual([]);
  });

  it("shows the server's message when the profile is refused", async () => {
    campaigns(undefined, { status: 400, text: 'Portfolio links must be http(s) URLs' });
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    const f = await form();
    await userEvent.click(within(f).getByRole('button', { name: 'Save Hiring Profile' }));
    expect(await screen.findByText('Failed to update hiring profile')).toBeVisible();
    expect(within(f).getByRole('alert')).toHaveTextContent('Portfolio links must be http(s) URLs');
  });

  it('shows the error when the profile cannot be read', async () => {
    fakeGateway(() => ({ status: 503, text: 'Service temporarily unavailable' }));
    renderScreen(<HiringProfileSection userId={USER_ID} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your hiring profile is unavailable right now. Error: 503: Service temporarily unavailable',
    );
  });
});
