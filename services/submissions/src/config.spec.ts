import { envExample } from '@clipit/testing';
import { loadSubmissionsConfig, submissionsConfigShape } from './config.js';

describe('submissions configuration', () => {
  it('lists every variable it reads in deploy/.env.example', () => {
    const listed = Object.keys(envExample());
    expect(Object.keys(submissionsConfigShape).filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('has the defaults deploy/.env.example gives', () => {
    const example = envExample();
    const given = Object.fromEntries(Object.keys(submissionsConfigShape).map((name) => [name, example[name]]));
    expect(loadSubmissionsConfig(given)).toEqual(loadSubmissionsConfig({}));
  });

  it('names a bad variable', () => {
    expect(() => loadSubmissionsConfig({ DAILY_VIDEO_LIMIT: '0' })).toThrow(/DAILY_VIDEO_LIMIT/);
  });
});
