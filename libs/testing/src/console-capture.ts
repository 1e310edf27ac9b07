/**
 * Records everything written to the console or straight to stdout/stderr (what `npm start` would show
 * raw next to the JSON logs), still passing stream writes through. `restore()` puts everything back.
 */
export function captureConsole(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const undo: Array<() => void> = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => void lines.push(`console.${method}: ${args.map(String).join(' ')}`);
    undo.push(() => (console[method] = original));
  }
  for (const stream of ['stdout', 'stderr'] as const) {
    const original = process[stream].write;
    process[stream].write = ((chunk: unknown, ...rest: unknown[]) => {
      lines.push(`${stream}: ${String(chunk)}`);
      return (original as (...a: unknown[]) => boolean).call(process[stream], chunk, ...rest);
    }) as typeof original;
    undo.push(() => (process[stream].write = original));
  }
  return {
    lines,
    restore: () =>
      undo
        .splice(0)
        .reverse()
        .forEach((u) => u()),
  };
}
