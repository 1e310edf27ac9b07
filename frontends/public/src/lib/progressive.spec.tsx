import { describe, expect, it } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { FIRST_ITEMS, useProgressiveCount } from './progressive.js';

function List({ total }: { total: number }) {
  const count = useProgressiveCount(total);
  return <p>{count}</p>;
}

const frame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));

describe('useProgressiveCount', () => {
  it('renders the first items with the page and the rest after a frame', async () => {
    render(<List total={100} />);
    expect(screen.getByText(String(FIRST_ITEMS))).toBeInTheDocument();
    await frame();
    expect(screen.getByText('100')).toBeInTheDocument();
  });

  it('renders a short list whole at once', () => {
    render(<List total={5} />);
    expect(screen.getByText('5')).toBeInTheDocument();
  });
});
