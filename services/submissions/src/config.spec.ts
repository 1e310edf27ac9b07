import { itAgreesWithEnvExample } from '@clipit/testing';
import { loadSubmissionsConfig, submissionsConfigShape } from './config.js';

describe('submissions configuration', () => {
  itAgreesWithEnvExample(submissionsConfigShape, loadSubmissionsConfig);

  it('names a bad variable', () => {
    expect(() => loadSubmissionsConfig({ DAILY_VIDEO_LIMIT: '0' })).toThrow(/DAILY_VIDEO_LIMIT/);
  });
});
