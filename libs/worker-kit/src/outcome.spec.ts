import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import {
  decidedProgressSchema,
  InvalidJobError,
  isLastAttempt,
  keptEventSchema,
  KeptOutcome,
  parseJobData,
  PublishFailedError,
  type Decided,
  type KeptJob,
} from './outcome.js';

type Event = { id: string; type: 'thing.done'; data: { n: number } };
type Progress = Decided<Event, { note?: string }>;

class FakeJob implements KeptJob {
  id = 'job-1';
  attemptsMade = 0;
  progress: unknown = 0;
  readonly writes: object[] = [];
  constructor(public data: unknown = {}) {}
  async updateProgress(value: object): Promise<void> {
    this.progress = value;
    this.writes.push(value);
  }
}

const schema = decidedProgressSchema({ event: keptEventSchema(['thing.done']).optional(), note: z.string().optional() });
const event: Event = { id: 'e-1', type: 'thing.done', data: { n: 1 } };

function outcomeWith(publish: (e: Event) => Promise<unknown>) {
  const published: Event[] = [];
  const outcome = new KeptOutcome<Event, Progress>({
    schema,
    events: { publishEnvelope: async (e) => (await publish(e), published.push(e)) },
  });
  return { outcome, published };
}

describe('KeptOutcome', () => {
  it('keeps a decision in the job before answering it, and answers the kept one on the next run without deciding again', async () => {
    const { outcome } = outcomeWith(async () => undefined);
    const job = new FakeJob();
    let decided = 0;
    const decide = async () => (decided++, { event, note: 'first' });
    expect(await outcome.decideOnce(job, decide)).toEqual({ stage: 'decided', event, note: 'first' });
    expect(job.writes).toEqual([{ stage: 'decided', event, note: 'first' }]);
    const told: Progress[] = [];
    expect(await outcome.decideOnce(job, decide, (r) => told.push(r))).toEqual({ stage: 'decided', event, note: 'first' });
    expect(decided).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('throws a failed decision for a retry until the last attempt, which keeps the last resort instead', async () => {
    const { outcome } = outcomeWith(async () => undefined);
    const job = Object.assign(new FakeJob(), { opts: { attempts: 2 } });
    const failing = { decide: async () => Promise.reject(new Error('ffmpeg died')), lastResort: (err: unknown) => ({ note: String(err) }) };
    await expect(outcome.decideOrGiveUp(job, new AbortController().signal, failing)).rejects.toThrow('ffmpeg died');
    expect(job.writes).toEqual([]);
    job.attemptsMade = 1;
    expect(isLastAttempt(job)).toBe(true);
    expect(await outcome.decideOrGiveUp(job, new AbortController().signal, failing)).toEqual({
      stage: 'decided',
      note: 'Error: ffmpeg died',
    });
    expect(job.writes).toHaveLength(1);
  });

  it('hands an aborted run back without a decision, even on the last attempt (the worker is shutting down)', async () => {
    const { outcome } = outcomeWith(async () => undefined);
    const job = new FakeJob();
    expect(isLastAttempt(job)).toBe(true);
    const aborted = new AbortController();
    aborted.abort();
    const steps = { decide: async () => Promise.reject(new Error('aborted')), lastResort: () => ({ note: 'gave up' }) };
    await expect(outcome.decideOrGiveUp(job, aborted.signal, steps)).rejects.toThrow('aborted');
    expect(job.writes).toEqual([]);
  });

  it('does not take a progress of another shape (a number, an undecided stage) for a decision', () => {
    const { outcome } = outcomeWith(async () => undefined);
    expect(outcome.recorded(42)).toBeUndefined();
    expect(outcome.recorded({ stage: 'running' })).toBeUndefined();
    expect(outcome.recorded({ stage: 'decided', event: { id: 'x', type: 'other.thing' } })).toBeUndefined();
  });

  it('counts failed publications in the job, keeping the decision as it was, and says so with PublishFailedError', async () => {
    let down = true;
    const { outcome, published } = outcomeWith(async () => {
      if (down) throw new Error('nats: timeout');
    });
    const job = new FakeJob();
    const decided = await outcome.keep(job, { event });
    const first = await outcome.publish(job, decided).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(PublishFailedError);
    expect(first).toMatchObject({ failures: 1, event, message: 'could not publish thing.done e-1: nats: timeout' });
    const second = await outcome.publish(job, outcome.recorded(job.progress)!).catch((e: unknown) => e);
    expect(second).toMatchObject({ failures: 2 });
    expect(job.progress).toEqual({ stage: 'decided', event, publishFailures: 2 });
    down = false;
    await outcome.publish(job, outcome.recorded(job.progress)!);
    expect(published).toEqual([event]);
  });

  it('publishes nothing for a decision without an event', async () => {
    const { outcome, published } = outcomeWith(async () => undefined);
    const job = new FakeJob();
    await outcome.publish(job, await outcome.keep(job, { note: 'nothing to state' }));
    expect(published).toEqual([]);
  });
});

describe('parseJobData', () => {
  it('answers the parsed data, or names the job, its kind and every bad field', () => {
    const jobSchema = z.object({ videoId: z.uuid(), size: z.number() });
    const id = '6f1c2c1e-8d0a-4c5e-9a53-0d2f4b1a7e11';
    expect(parseJobData(jobSchema, { id: 'j', data: { videoId: id, size: 1 } }, 'probe')).toEqual({ videoId: id, size: 1 });
    const bad = () => parseJobData(jobSchema, { id: 'j', data: { videoId: 'x' } }, 'probe');
    expect(bad).toThrow(InvalidJobError);
    expect(bad).toThrow(/^job j is not a probe job: videoId: .+; size: /);
  });
});
