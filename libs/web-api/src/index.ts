export * from './http.js';
export * from './query-client.js';
export * from './current-user.js';
export * from './api-types.js';
export * from './auth-providers.js';
