export type ClassDictionary = Record<string, unknown>;
export type ClassValue = string | number | boolean | null | undefined | ClassDictionary | readonly ClassValue[];

/**
 * Joins class names, skipping falsy values: strings and numbers as they are, arrays flattened,
 * objects contribute each key whose value is truthy. `cn('clip-btn', loading && 'is-loading', { active })`.
 */
export function cn(...inputs: ClassValue[]): string {
  const out: string[] = [];
  const add = (value: ClassValue): void => {
    if (!value) return;
    if (typeof value === 'string' || typeof value === 'number') {
      out.push(String(value));
    } else if (Array.isArray(value)) {
      for (const item of value as readonly ClassValue[]) add(item);
    } else if (typeof value === 'object') {
      for (const [name, on] of Object.entries(value)) if (on) out.push(name);
    }
  };
  for (const input of inputs) add(input);
  return out.join(' ');
}
