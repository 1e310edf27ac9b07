import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger, type TabsProps } from './tabs.js';

function Dashboard(props: Partial<TabsProps> & { disableEarnings?: boolean }) {
  const { disableEarnings, ...rest } = props;
  const state = 'value' in rest && rest.value !== undefined ? rest : { defaultValue: 'submissions', ...rest };
  return (
    <Tabs {...(state as TabsProps)}>
      <TabsList aria-label="Dashboard">
        <TabsTrigger value="submissions">Submissions</TabsTrigger>
        <TabsTrigger value="submit new">Submit New Clip</TabsTrigger>
        <TabsTrigger value="earnings" disabled={disableEarnings}>
          Earnings
        </TabsTrigger>
        <TabsTrigger value="profile">Profile</TabsTrigger>
      </TabsList>
      <TabsContent value="submissions">Recent submissions</TabsContent>
      <TabsContent value="submit new">Submission form</TabsContent>
      <TabsContent value="earnings">Paid, pending, total</TabsContent>
      <TabsContent value="profile" forceMount>
        Profile form
      </TabsContent>
    </Tabs>
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('Tabs', () => {
  it('wires tablist, tabs and panels the WAI-ARIA way', () => {
    render(<Dashboard />);
    expect(screen.getByRole('tablist', { name: 'Dashboard' })).toHaveAttribute('aria-orientation', 'horizontal');
    const selected = tab('Submissions');
    expect(selected).toHaveAttribute('aria-selected', 'true');
    expect(tab('Profile')).toHaveAttribute('aria-selected', 'false');
    const panel = screen.getByRole('tabpanel', { name: 'Submissions' });
    expect(selected).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveAttribute('aria-labelledby', selected.id);
    expect(panel).toHaveTextContent('Recent submissions');
    // Inactive panels exist (aria-controls resolves) but are hidden and, unless forceMount, empty.
    const hidden = screen.getAllByRole('tabpanel', { hidden: true }).filter((p) => p !== panel);
    expect(hidden).toHaveLength(3);
    for (const p of hidden) expect(p).not.toBeVisible();
    expect(document.getElementById(tab('Earnings').getAttribute('aria-controls')!)).toBeEmptyDOMElement();
    expect(document.getElementById(tab('Profile').getAttribute('aria-controls')!)).toHaveTextContent('Profile form');
  });

  it('has one tab stop: the selected tab (roving tabindex), then the panel', async () => {
    const user = userEvent.setup();
    render(<Dashboard />);
    expect(tab('Submissions')).toHaveAttribute('tabindex', '0');
    for (const name of ['Submit New Clip', 'Earnings', 'Profile']) expect(tab(name)).toHaveAttribute('tabindex', '-1');
    await user.tab();
    expect(tab('Submissions')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });

  it('arrow keys move and select, wrapping at both ends; Home and End jump', async () => {
    const user = userEvent.setup();
    render(<Dashboard />);
    await user.click(tab('Submissions'));

    await user.keyboard('{ArrowRight}');
    expect(tab('Submit New Clip')).toHaveFocus();
    expect(tab('Submit New Clip')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Submit New Clip')).toHaveAttribute('tabindex', '0');
    expect(tab('Submissions')).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Submission form');

    await user.keyboard('{End}');
    expect(tab('Profile')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(tab('Submissions')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Profile')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(tab('Submissions')).toHaveFocus();
    expect(tab('Submissions')).toHaveAttribute('aria-selected', 'true');
    // Up/Down belong to vertical tabs.
    await user.keyboard('{ArrowDown}');
    expect(tab('Submissions')).toHaveFocus();
  });

  it('skips disabled tabs', async () => {
    const user = userEvent.setup();
    render(<Dashboard disableEarnings />);
    await user.click(tab('Submit New Clip'));
    await user.keyboard('{ArrowRight}');
    expect(tab('Profile')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tab('Submit New Clip')).toHaveFocus();
  });

  it('manual activation: arrows only move focus, Enter or Space selects', async () => {
    const user = userEvent.setup();
    render(<Dashboard activationMode="manual" />);
    await user.click(tab('Submissions'));
    await user.keyboard('{ArrowRight}');
    expect(tab('Submit New Clip')).toHaveFocus();
    expect(tab('Submissions')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(tab('Submit New Clip')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}{ArrowRight}[Space]');
    expect(tab('Profile')).toHaveAttribute('aria-selected', 'true');
  });

  it('vertical orientation uses Up and Down', async () => {
    const user = userEvent.setup();
    render(<Dashboard orientation="vertical" />);
    expect(screen.getByRole('tablist')).toHaveAttribute('aria-orientation', 'vertical');
    await user.click(tab('Submissions'));
    await user.keyboard('{ArrowDown}');
    expect(tab('Submit New Clip')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(tab('Profile')).toHaveFocus();
  });

  it('controlled: reports changes and shows what the parent decides', async () => {
    const user = userEvent.setup();
    const onValueChange = jest.fn();
    function Controlled() {
      const [value, setValue] = useState('earnings');
      return (
        <Dashboard
          value={value}
          onValueChange={(next: string) => {
            onValueChange(next);
            setValue(next);
          }}
        />
      );
    }
    render(<Controlled />);
    expect(tab('Earnings')).toHaveAttribute('aria-selected', 'true');
    await user.click(tab('Profile'));
    expect(onValueChange).toHaveBeenCalledWith('profile');
    expect(tab('Profile')).toHaveAttribute('aria-selected', 'true');
    await user.click(tab('Profile'));
    expect(onValueChange).toHaveBeenCalledTimes(1);
  });
});
