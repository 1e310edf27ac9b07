/** A refusal as the web apps show it in a toast: a title and a sentence (spec 01 §5, §8). */
export interface Problem {
  readonly title: string;
  readonly description: string;
}

/**
 * The same refusal as one line, "Title: description": what the services answer with, so a client that
 * shows the answer as it is still shows both parts.
 */
export function problemText<T extends string, D extends string>(problem: { readonly title: T; readonly description: D }): `${T}: ${D}` {
  return `${problem.title}: ${problem.description}`;
}
