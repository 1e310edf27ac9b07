import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { Input } from './input.js';
import { Select } from './select.js';
import { Textarea } from './textarea.js';

describe('Input', () => {
  it('is labelled, and wires description and error through aria-describedby and aria-invalid', () => {
    const ref = createRef<HTMLInputElement>();
    render(
      <Input
        ref={ref}
        label="Solana wallet"
        description="Rewards are paid here every Friday."
        error="Please enter a valid Solana wallet address"
        className="mono"
      />,
    );
    const input = screen.getByLabelText('Solana wallet');
    expect(input).toBe(ref.current);
    expect(input).toHaveClass('clip-input', 'mono');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Rewards are paid here every Friday. Please enter a valid Solana wallet address');
    const describedBy = input.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy).toHaveLength(2);
    expect(document.getElementById(describedBy[1]!)).toHaveTextContent('Please enter a valid Solana wallet address');
  });

  it('without an error it is not invalid and not described by an error', () => {
    const { rerender } = render(<Input label="Email" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
    rerender(<Input label="Email" error="Please enter a valid email address" />);
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Please enter a valid email address');
    rerender(<Input label="Email" />);
    expect(input).toBeValid();
  });

  it('keeps a caller-provided id and aria-describedby', () => {
    render(
      <>
        <p id="hint">Without the @</p>
        <Input id="handle" label="Twitter handle" aria-describedby="hint" error="Twitter handle is required" />
      </>,
    );
    const input = screen.getByLabelText('Twitter handle');
    expect(input).toHaveAttribute('id', 'handle');
    expect(input).toHaveAccessibleDescription('Without the @ Twitter handle is required');
  });

  it('hideLabel keeps the accessible name; required is native', () => {
    render(<Input label="Search creators" hideLabel required />);
    const input = screen.getByRole('textbox', { name: /Search creators/ });
    expect(input).toBeRequired();
    expect(screen.getByText('Search creators')).toHaveClass('clip-sr-only');
  });

  it('password toggle: a labelled button that shows and hides the password', async () => {
    const user = userEvent.setup();
    render(<Input label="Password" type="password" passwordToggle defaultValue="hunter22" />);
    const input = screen.getByLabelText('Password');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-controls', input.id);

    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAccessibleName('Hide password');
    expect(toggle).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAccessibleName('Show password');
  });

  it('no toggle unless asked, nor for non-password inputs', () => {
    render(
      <>
        <Input label="A" type="password" />
        <Input label="B" passwordToggle />
      </>,
    );
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('Textarea', () => {
  it('counts characters against maxLength, as part of its description', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<Textarea label="Additional info" maxLength={150} showCount description="Optional" onChange={onChange} />);
    const textarea = screen.getByRole('textbox', { name: 'Additional info' });
    expect(textarea).toHaveAttribute('maxlength', '150');
    expect(textarea).toHaveAccessibleDescription('Optional 0 of 150 characters used');
    expect(screen.getByText('0/150')).toHaveAttribute('aria-hidden', 'true');

    await user.type(textarea, 'Clip it');
    expect(screen.getByText('7/150')).toBeInTheDocument();
    expect(textarea).toHaveAccessibleDescription('Optional 7 of 150 characters used');
    expect(onChange).toHaveBeenCalledTimes(7);
  });

  it('counts a controlled value', () => {
    function Controlled() {
      const [value] = useState('x'.repeat(150));
      return <Textarea label="Notes" value={value} onChange={() => undefined} maxLength={150} showCount />;
    }
    render(<Controlled />);
    expect(screen.getByText('150/150').parentElement).toHaveClass('clip-field__count--full');
  });

  it('wires errors like Input', () => {
    render(<Textarea label="Description" error="Description is too long" />);
    const textarea = screen.getByRole('textbox', { name: 'Description' });
    expect(textarea).toBeInvalid();
    expect(textarea).toHaveAccessibleDescription('Description is too long');
  });
});

describe('Select', () => {
  const options = [
    { value: 'clippers', label: 'Clippers' },
    { value: 'streamers', label: 'Streamers' },
  ];

  it('is a labelled native select with options, placeholder first', async () => {
    const user = userEvent.setup();
    const ref = createRef<HTMLSelectElement>();
    render(<Select ref={ref} label="Role" placeholder="Select a role" options={options} />);
    const select = screen.getByRole('combobox', { name: 'Role' });
    expect(select).toBe(ref.current);
    expect(select).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Select a role' })).toBeDisabled();
    await user.selectOptions(select, 'streamers');
    expect(select).toHaveValue('streamers');
  });

  it('wires errors like Input', () => {
    render(<Select label="Role" options={options} error="Please select a role" />);
    const select = screen.getByRole('combobox', { name: 'Role' });
    expect(select).toBeInvalid();
    expect(select).toHaveAccessibleDescription('Please select a role');
  });
});
