import 'reflect-metadata';
import { jest } from '@jest/globals';
import { PARAMTYPES_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants.js';

// Strict fakes for unit specs: every method of a dependency is a jest.fn() that throws until the test
// says what it does, so a call the test did not expect fails where it happens instead of quietly
// answering undefined. `mockReset()` removes that default (the mock then answers undefined); use
// `mockClear()` between tests, or build the fakes again.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a constructor of any arity, as Nest's own `Type` is
type Constructor<T> = abstract new (...args: any[]) => T;

/** The methods of T (what automock turns into strict mocks). */
export type MethodName<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

export class UnexpectedCallError extends Error {
  constructor(owner: string, method: string) {
    super(`unexpected call to ${owner}.${method}: give it an implementation or a value in the test`);
    this.name = 'UnexpectedCallError';
  }
}

function strictFn(owner: string, method: string) {
  return jest.fn(() => {
    throw new UnexpectedCallError(owner, method);
  });
}

function prototypeMethods(type: Constructor<unknown>): string[] {
  const names = new Set<string>();
  for (
    let proto: object | null = type.prototype as object;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      // Getters and setters stay out: reading one would run it.
      if (name !== 'constructor' && typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/**
 * A strict mock of a class: each of its prototype methods (inherited ones too) is a `jest.fn()` that
 * throws "unexpected call to <Class>.<method>" until the test gives it an implementation or a value
 * (`mockResolvedValue`, `mockReturnValueOnce`, `mockImplementation`…).
 *
 * For an interface (a port, a client, a driver: nothing on a prototype to read), name it and list
 * the methods the code under test may call: `automock<IdentityPort>('IdentityPort', ['getToken', 'getUser'])`.
 */
export function automock<T extends object>(type: Constructor<T>): jest.Mocked<T>;
export function automock<T extends object>(name: string, methods: ReadonlyArray<MethodName<T>>): jest.Mocked<T>;
export function automock<T extends object>(typeOrName: Constructor<T> | string, methods?: ReadonlyArray<MethodName<T>>): jest.Mocked<T> {
  const owner = typeof typeOrName === 'string' ? typeOrName : typeOrName.name;
  const names = typeof typeOrName === 'string' ? (methods ?? []) : prototypeMethods(typeOrName);
  const mock: Record<string, unknown> =
    typeof typeOrName === 'string' ? {} : (Object.create(typeOrName.prototype as object) as Record<string, unknown>);
  for (const name of names) mock[name] = strictFn(owner, name);
  return mock as jest.Mocked<T>;
}

/** Values for the injection tokens a service takes (`@Inject(CONFIG)`…): the parts automock cannot guess. */
export type TokenValues = Partial<Record<string | symbol, unknown>>;

export interface TestService<T> {
  /** The service under test, built with its constructor's dependencies. */
  service: T;
  /** The strict mock built for a dependency of that class (throws for a class the service does not take). */
  mock<D extends object>(type: Constructor<D>): jest.Mocked<D>;
}

interface DeclaredDependency {
  index: number;
  param: unknown;
}

const describeToken = (token: unknown): string => (typeof token === 'function' ? token.name : String(token));

// What the compiler emits for a parameter typed as an interface, a union or a primitive: nothing to mock.
const NOT_MOCKABLE = new Set<unknown>([Object, String, Number, Boolean, Symbol, BigInt, Array, Function, Promise]);

/**
 * Builds `type` as Nest would, from its constructor's parameters (the `design:paramtypes` metadata
 * its decorator makes the compiler emit, and `@Inject(token)` where one is given): a parameter
 * injected by a token takes the value given for that token in `values`; any other parameter whose
 * type is a class gets `automock(thatClass)`. A parameter neither can fill (a token without a value,
 * an interface type without `@Inject`) stops the test with its position and token.
 *
 *     const { service, mock } = createTestService(ModerationService, { [LOGGER]: silentLogger });
 *     mock(SubmissionRepository).lockById.mockResolvedValue(submission);
 */
export function createTestService<T>(type: Constructor<T>, values: TokenValues = {}): TestService<T> {
  const paramTypes = (Reflect.getMetadata(PARAMTYPES_METADATA, type) as unknown[] | undefined) ?? [];
  if (paramTypes.length === 0 && type.length > 0) {
    throw new Error(
      `createTestService(${type.name}): no constructor metadata; is the class decorated (@Injectable()) and compiled with decorator metadata?`,
    );
  }
  const declared = (Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) as DeclaredDependency[] | undefined) ?? [];
  const tokens = new Map(declared.map((d) => [d.index, d.param]));
  const mocks = new Map<unknown, unknown>();

  const args = paramTypes.map((paramType, index) => {
    const where = `createTestService(${type.name}): constructor parameter ${index}`;
    if (tokens.has(index)) {
      const token = tokens.get(index);
      if ((typeof token === 'string' || typeof token === 'symbol') && Object.prototype.hasOwnProperty.call(values, token))
        return values[token];
      if (typeof token !== 'function') throw new Error(`${where} is injected by ${describeToken(token)}: pass a value for it`);
      paramType = token; // @Inject(SomeClass): that class, whatever the declared type
    }
    if (typeof paramType !== 'function' || NOT_MOCKABLE.has(paramType)) {
      throw new Error(`${where} has no class to mock (${describeToken(paramType)}): inject it by a token and pass a value for it`);
    }
    const mock = automock(paramType as Constructor<object>);
    mocks.set(paramType, mock);
    return mock;
  });

  const service = new (type as new (...a: unknown[]) => T)(...args);
  return {
    service,
    mock: <D extends object>(dependency: Constructor<D>) => {
      const found = mocks.get(dependency);
      if (!found)
        throw new Error(`createTestService(${type.name}) built no mock of ${dependency.name}: it is not one of its class dependencies`);
      return found as jest.Mocked<D>;
    },
  };
}
