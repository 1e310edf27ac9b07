// Jest (web project), after libs/ui/jest.setup.ts: jsdom lacks the TextEncoder/TextDecoder react-router uses.
import { TextDecoder, TextEncoder } from 'node:util';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
