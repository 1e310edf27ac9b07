import { describe, expect, it } from '@jest/globals';
import { Inject, Injectable } from '@nestjs/common';
import { automock, createTestService, UnexpectedCallError } from './automock.js';

// The helper unit specs build their fakes with: strict by default, typed, and filled from the
// constructor metadata Nest itself reads.

class Base {
  inherited(): string {
    return 'real';
  }
}

class Store extends Base {
  private calls = 0;
  get count(): number {
    return this.calls;
  }
  async load(id: string): Promise<string> {
    this.calls += 1;
    return `row ${id}`;
  }
  save(_value: string): void {
    this.calls += 1;
  }
}

interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

const CONFIG = Symbol('CONFIG');
const CLOCK = Symbol('CLOCK');

@Injectable()
class Reader {
  constructor(
    readonly store: Store,
    @Inject(CONFIG) readonly config: { prefix: string },
    @Inject(CLOCK) readonly clock: Clock,
  ) {}

  async read(id: string): Promise<string> {
    return `${this.config.prefix}${await this.store.load(id)} at ${this.clock.now().toISOString()}`;
  }
}

@Injectable()
class NeedsAnInterface {
  constructor(readonly clock: Clock) {}
}

@Injectable()
class InjectsAClassByToken {
  constructor(@Inject(Store) readonly store: unknown) {}
}

describe('automock', () => {
  it('makes every prototype method, inherited ones too, a mock that throws until the test gives it a behaviour', async () => {
    const store = automock(Store);
    expect(() => store.save('x')).toThrow(new UnexpectedCallError('Store', 'save'));
    expect(() => store.inherited()).toThrow('unexpected call to Store.inherited');
    expect(() => store.load('1')).toThrow('unexpected call to Store.load');

    store.load.mockResolvedValueOnce('first').mockResolvedValue('rest');
    expect(await store.load('1')).toBe('first');
    expect(await store.load('2')).toBe('rest');
    expect(store.load.mock.calls).toEqual([['1'], ['1'], ['2']]);
    store.save.mockReturnValue(undefined);
    store.save('y');
    expect(store.save).toHaveBeenCalledWith('y');
  });

  it('keeps instanceof and leaves getters alone (reading one does not run a mock)', () => {
    const store = automock(Store);
    expect(store).toBeInstanceOf(Store);
    expect(Object.keys(store).sort()).toEqual(['inherited', 'load', 'save']);
  });

  it('stays strict after mockClear, and each mock is its own', () => {
    const a = automock(Store);
    const b = automock(Store);
    a.save.mockReturnValue(undefined);
    a.save('x');
    a.save.mockClear();
    expect(a.save).not.toHaveBeenCalled();
    expect(() => b.save('x')).toThrow(UnexpectedCallError);
  });

  it('mocks an interface from the methods named', async () => {
    const clock = automock<Clock>('Clock', ['now', 'sleep']);
    expect(() => clock.now()).toThrow('unexpected call to Clock.now');
    clock.sleep.mockResolvedValue(undefined);
    await clock.sleep(5);
    expect(clock.sleep).toHaveBeenCalledWith(5);
  });
});

describe('createTestService', () => {
  const at = new Date('2026-11-24T10:00:00.000Z');

  it('auto-mocks class dependencies and takes token values from the test', async () => {
    const clock = automock<Clock>('Clock', ['now', 'sleep']);
    clock.now.mockReturnValue(at);
    const { service, mock } = createTestService(Reader, { [CONFIG]: { prefix: '> ' }, [CLOCK]: clock });
    mock(Store).load.mockResolvedValue('row 7');
    expect(await service.read('7')).toBe('> row 7 at 2026-11-24T10:00:00.000Z');
    expect(service.store).toBe(mock(Store));
    expect(service.clock).toBe(clock);
  });

  it('says which parameter is missing a value', () => {
    expect(() => createTestService(Reader, { [CONFIG]: { prefix: '' } })).toThrow(
      'createTestService(Reader): constructor parameter 2 is injected by Symbol(CLOCK): pass a value for it',
    );
  });

  it('refuses a parameter typed by an interface without a token: there is nothing to mock', () => {
    expect(() => createTestService(NeedsAnInterface)).toThrow(/constructor parameter 0 has no class to mock \(Object\)/);
  });

  it('mocks the class named by @Inject(SomeClass)', () => {
    const { service, mock } = createTestService(InjectsAClassByToken);
    expect(service.store).toBe(mock(Store));
  });

  it('answers only for the classes the service takes', () => {
    const { mock } = createTestService(Reader, { [CONFIG]: {}, [CLOCK]: {} });
    expect(() => mock(Base)).toThrow('createTestService(Reader) built no mock of Base: it is not one of its class dependencies');
  });
});
