// Jest (web project), after libs/ui/jest.setup.ts: jsdom lacks TextEncoder/TextDecoder.
import { TextDecoder, TextEncoder } from 'node:util';

if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
