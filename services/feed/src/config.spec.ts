import { describe, expect, it } from '@jest/globals';
import { itAgreesWithEnvExample } from '@clipit/testing';
import { feedConfigShape, loadFeedConfig } from './config.js';

describe('feed configuration', () => {
  itAgreesWithEnvExample(feedConfigShape, loadFeedConfig);

  it('names a bad variable', () => {
    expect(() => loadFeedConfig({ FEED_GRPC_PORT: 'seventy' })).toThrow(/FEED_GRPC_PORT/);
  });
});
