import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/fixtures/test-database';
import { holdLease, releaseLease } from './leases';

describe('leases', () => {
  let database: TestDatabase;
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));
  const TTL = 10 * 60_000;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => database.close());

  it('one holder at a time; the holder renews, another takes over once it expired', async () => {
    const { db } = database;
    expect(await holdLease(db, 'chore', at(0), TTL, 'a')).toBe(true);
    expect(await holdLease(db, 'chore', at(1), TTL, 'b')).toBe(false);
    expect(await holdLease(db, 'chore', at(5), TTL, 'a')).toBe(true); // renewed until minute 15
    expect(await holdLease(db, 'chore', at(12), TTL, 'b')).toBe(false);
    expect(await holdLease(db, 'chore', at(15), TTL, 'b')).toBe(true);
    expect(await holdLease(db, 'chore', at(16), TTL, 'a')).toBe(false);
    expect(await holdLease(db, 'other chore', at(16), TTL, 'a')).toBe(true);
  });

  it('has exactly one winner when many ask at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => holdLease(database.db, 'race', at(0), TTL, `holder-${i}`)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('is free at once when its holder releases it', async () => {
    const { db } = database;
    expect(await holdLease(db, 'chore', at(0), TTL, 'a')).toBe(true);
    await releaseLease(db, 'chore', 'b'); // not b's to release
    expect(await holdLease(db, 'chore', at(1), TTL, 'b')).toBe(false);
    await releaseLease(db, 'chore', 'a');
    expect(await holdLease(db, 'chore', at(1), TTL, 'b')).toBe(true);
  });
});
