export * from './events/envelope.js';
export * from './events/catalog.js';
export * from './events/identity/public-user.js';
export * from './events/identity/user-registered.v1.js';
export * from './events/identity/user-updated.v1.js';
export * from './grpc.js';
export * as identityV1 from './generated/identity/v1/identity.js';
