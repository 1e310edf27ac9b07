import { HandlerRegistrationError, HandlerRegistry } from './handlers.js';

const noop = async (): Promise<void> => undefined;

describe('HandlerRegistry', () => {
  it('answers one handler per subscribed type', () => {
    const registry = new HandlerRegistry().on('user.registered', noop).on('user.updated', noop);
    expect([...registry.validate(['user.registered', 'user.updated']).keys()]).toEqual(['user.registered', 'user.updated']);
  });

  it('fails start-up when a subscribed type has no handler', () => {
    const registry = new HandlerRegistry().on('user.registered', noop);
    expect(() => registry.validate(['user.registered', 'user.updated'])).toThrow(/"user.updated" is subscribed but has no handler/);
  });

  it('fails start-up when a type has two handlers, naming both', () => {
    const registry = new HandlerRegistry()
      .on('user.registered', noop, 'FeedProjector.onUser')
      .on('user.registered', noop, 'StatsProjector.onUser');
    expect(() => registry.validate(['user.registered'])).toThrow(/has 2 handlers \(FeedProjector.onUser, StatsProjector.onUser\)/);
  });

  it('fails start-up on a handler for a type nobody subscribed to, and on unknown types', () => {
    const registry = new HandlerRegistry().on('user.registered', noop).on('user.updated', noop);
    expect(() => registry.validate(['user.registered'])).toThrow(/"user.updated" has a handler .* but is not subscribed/);
    expect(() => new HandlerRegistry().validate(['user.deleted'])).toThrow(HandlerRegistrationError);
  });

  it('accepts a typed table', () => {
    const registry = new HandlerRegistry().addTable({ 'user.registered': noop, 'user.updated': noop });
    expect(registry.validate(['user.registered', 'user.updated']).size).toBe(2);
  });
});
