/** What a key does on a row of the moderation queue. */
export type QueueCommand = 'next' | 'previous' | 'approve' | 'feed' | 'reject' | 'video' | 'details';

/** The keys, as the queue's help line lists them. */
export const QUEUE_SHORTCUTS: ReadonlyArray<{ keys: string; command: QueueCommand; label: string }> = [
  { keys: 'j', command: 'next', label: 'next' },
  { keys: 'k', command: 'previous', label: 'previous' },
  { keys: 'a', command: 'approve', label: 'approve' },
  { keys: 'f', command: 'feed', label: 'approve and add to feed (add to feed once approved)' },
  { keys: 'r', command: 'reject', label: 'reject' },
  { keys: 'v', command: 'video', label: 'play or hide the video' },
  { keys: 'o', command: 'details', label: 'open or close the details' },
];

const BY_KEY: Record<string, QueueCommand> = {
  ...Object.fromEntries(QUEUE_SHORTCUTS.map((s) => [s.keys, s.command])),
  ArrowDown: 'next',
  ArrowUp: 'previous',
};

/** The parts of a keyboard event the queue reads (a React or a DOM event). */
export interface QueueKeyEvent {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  target: EventTarget | null;
}

/** Where typing goes: a key pressed there is text, never a command. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as { tagName?: string; isContentEditable?: boolean } | null;
  if (!element?.tagName) return false;
  return element.isContentEditable === true || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}

/**
 * The command of a key pressed on a queue row: none with a modifier held (the browser's own shortcuts) or
 * while typing in a field. Arrow keys move as j and k do.
 */
export function queueCommand(event: QueueKeyEvent): QueueCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return null;
  return BY_KEY[event.key] ?? null;
}
