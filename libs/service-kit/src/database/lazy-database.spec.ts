import { jest } from '@jest/globals';

// A service without a database (the gateway, the media worker) imports the kit's index all the same: typeorm's
// ~300 modules and pg must not come with it (ADR 0046). Both stand-ins count their loads.

const loads = { typeorm: 0, pg: 0 };
jest.unstable_mockModule('typeorm', () => {
  loads.typeorm += 1;
  return { DataSource: class {}, QueryFailedError: class extends Error {} };
});
jest.unstable_mockModule('pg', () => {
  loads.pg += 1;
  return { default: { Client: class {} } };
});

const kit = await import('../index.js');

describe('the service kit without a database', () => {
  it('loads neither typeorm nor pg with its index', () => {
    expect(typeof kit.bootstrapService).toBe('function');
    expect(typeof kit.openServiceDatabase).toBe('function');
    expect(loads).toEqual({ typeorm: 0, pg: 0 });
  });
});
