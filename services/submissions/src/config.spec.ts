import { configAgainstEnvExample } from '@clipit/testing';
import { loadSubmissionsConfig, submissionsConfigShape } from './config.js';

describe('submissions configuration', () => {
  it('lists every variable it reads in deploy/.env.example', () => {
    expect(configAgainstEnvExample(submissionsConfigShape, loadSubmissionsConfig).unlisted).toEqual([]);
  });

  it('has the defaults deploy/.env.example gives', () => {
    const { fromExample, fromDefaults } = configAgainstEnvExample(submissionsConfigShape, loadSubmissionsConfig);
    expect(fromExample).toEqual(fromDefaults);
  });

  it('names a bad variable', () => {
    expect(() => loadSubmissionsConfig({ DAILY_VIDEO_LIMIT: '0' })).toThrow(/DAILY_VIDEO_LIMIT/);
  });
});
