import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { Button } from './button.js';

describe('Button', () => {
  it('is a native button, type="button" by default, with variant and size classes', () => {
    const ref = createRef<HTMLButtonElement>();
    render(
      <Button ref={ref} variant="outline" size="lg" className="extra">
        Buy $CLIP
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Buy $CLIP' });
    expect(button).toBe(ref.current);
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('clip-btn', 'clip-btn--outline', 'clip-btn--lg', 'extra');
  });

  it('defaults to primary, medium', () => {
    render(<Button>Go</Button>);
    expect(screen.getByRole('button')).toHaveClass('clip-btn--primary', 'clip-btn--md');
  });

  it('loading: aria-busy and aria-disabled, still focusable, clicks ignored, loading text shown', async () => {
    const user = userEvent.setup();
    const onClick = jest.fn();
    render(
      <Button loading loadingText="Submitting..." onClick={onClick}>
        Submit
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Submitting...' });
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).not.toBeDisabled();
    await user.tab();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(onClick).not.toHaveBeenCalled();
  });

  it('a loading submit button does not submit its form again', async () => {
    const user = userEvent.setup();
    const onSubmit = jest.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Submit</Button>
      </form>,
    );
    await user.click(screen.getByRole('button'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    rerender(
      <form onSubmit={onSubmit}>
        <Button type="submit" loading>
          Submit
        </Button>
      </form>,
    );
    await user.click(screen.getByRole('button'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('not loading: no aria-busy, clicks go through; disabled is native', async () => {
    const user = userEvent.setup();
    const onClick = jest.fn();
    const { rerender } = render(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole('button');
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender(
      <Button onClick={onClick} disabled>
        Save
      </Button>,
    );
    expect(button).toBeDisabled();
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
