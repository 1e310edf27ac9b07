import { randomUUID } from 'node:crypto';
import { createTestDatabase, dropTestDatabase, isolatedNames } from '@clipit/testing';
import { DataSource, type EntityManager } from 'typeorm';
import { CreateEventBusTables1763700000000 } from '../../src/bus/bus.migration.js';
import { Outbox } from '../../src/bus/outbox.js';
import { dataSourceOptions, runMigrationsLocked } from '../../src/database/database.js';
import { TransactionRunner } from '../../src/database/transactions.js';
import { CreateApplied1763700000001, sampleUser } from '../fixtures/bus-harness.js';

describe('TransactionRunner (real Postgres)', () => {
  const iso = isolatedNames('tx-runner');
  let dataSource: DataSource;
  let runner: TransactionRunner;
  const outbox = new Outbox('test');

  beforeAll(async () => {
    const url = await createTestDatabase(iso.database);
    dataSource = new DataSource(
      dataSourceOptions({ url, entities: [], migrations: [CreateEventBusTables1763700000000, CreateApplied1763700000001], poolSize: 4 }),
    );
    await dataSource.initialize();
    await runMigrationsLocked(dataSource);
    runner = new TransactionRunner(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await dropTestDatabase(iso.database);
  });

  const insertWidget = async (tx: EntityManager, name: string) => {
    const id = randomUUID();
    await tx.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [id, name]);
    return id;
  };
  const widgetNamed = async (name: string) =>
    ((await dataSource.query('SELECT 1 FROM widgets WHERE name = $1', [name])) as unknown[]).length;
  const outboxRow = async (id: string) => ((await dataSource.query('SELECT 1 FROM outbox WHERE id = $1', [id])) as unknown[]).length;

  it('commits the change and its outbox event together when the work resolves, and answers what the work answered', async () => {
    const result = await runner.run(async (tx) => {
      await insertWidget(tx, 'committed');
      const envelope = await outbox.append(tx, 'user.registered', sampleUser('committed'));
      return { eventId: envelope.id };
    });
    expect(await widgetNamed('committed')).toBe(1);
    expect(await outboxRow(result.eventId)).toBe(1);
  });

  it('rolls the change and its outbox event back when the work throws, and rethrows that very error', async () => {
    const failure = new Error('refused after writing');
    let eventId = '';
    const outcome = runner.run(async (tx) => {
      await insertWidget(tx, 'rolled-back');
      eventId = (await outbox.append(tx, 'user.registered', sampleUser('rolled-back'))).id;
      throw failure;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(eventId).not.toBe('');
    expect(await widgetNamed('rolled-back')).toBe(0);
    expect(await outboxRow(eventId)).toBe(0);
  });

  it('refuses a transaction opened inside another, instead of letting it commit alone or wait on its own locks', async () => {
    const outcome = runner.run(async (tx) => {
      const id = await insertWidget(tx, 'outer');
      await tx.query('SELECT 1 FROM widgets WHERE id = $1 FOR UPDATE', [id]);
      // With a second connection this would wait for the outer's row lock for ever.
      await runner.run((inner) => inner.query('UPDATE widgets SET name = $1 WHERE id = $2', ['inner', id]));
    });
    await expect(outcome).rejects.toThrow('a transaction was opened inside another one');
    expect(await widgetNamed('outer')).toBe(0);
    expect(await widgetNamed('inner')).toBe(0);
  });

  it('lets side-by-side transactions run, and work left running by a finished one open its own', async () => {
    await Promise.all([runner.run((tx) => insertWidget(tx, 'side-a')), runner.run((tx) => insertWidget(tx, 'side-b'))]);
    expect(await widgetNamed('side-a')).toBe(1);
    expect(await widgetNamed('side-b')).toBe(1);

    // The work it leaves behind goes on once the transaction has ended (a timer could fire before the
    // commit on a slow machine): it still runs in the async context the transaction's work gave it.
    let ended!: () => void;
    const transactionEnded = new Promise<void>((resolve) => (ended = resolve));
    let later: Promise<string> | undefined;
    await runner.run(async (tx) => {
      await insertWidget(tx, 'first');
      later = transactionEnded.then(() => runner.run((next) => insertWidget(next, 'after')));
    });
    ended();
    await later;
    expect(await widgetNamed('after')).toBe(1);
  });

  it('nests with a savepoint: a failed part is undone alone and the caller commits the rest, a resolved part commits with it', async () => {
    await runner.run(async (tx) => {
      await insertWidget(tx, 'kept-outer');
      await expect(
        runner.nested(tx, async (inner) => {
          await insertWidget(inner, 'undone-part');
          throw new Error('this part fails');
        }),
      ).rejects.toThrow('this part fails');
      await runner.nested(tx, (inner) => insertWidget(inner, 'kept-part'));
    });
    expect(await widgetNamed('kept-outer')).toBe(1);
    expect(await widgetNamed('undone-part')).toBe(0);
    expect(await widgetNamed('kept-part')).toBe(1);

    // A resolved part still goes when its caller rolls back.
    await expect(
      runner.run(async (tx) => {
        await runner.nested(tx, (inner) => insertWidget(inner, 'part-of-failed'));
        throw new Error('caller fails');
      }),
    ).rejects.toThrow('caller fails');
    expect(await widgetNamed('part-of-failed')).toBe(0);
  });

  it('refuses to nest outside a transaction', async () => {
    await expect(runner.nested(dataSource.manager, (tx) => insertWidget(tx, 'nowhere'))).rejects.toThrow(
      'TransactionRunner.nested needs the open transaction of its caller',
    );
    expect(await widgetNamed('nowhere')).toBe(0);
  });
});
