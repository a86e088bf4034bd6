import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '../../../contract/transfer';
import { sameText } from './progress-text';

const progress = (percent: number, speed: number, secondsLeft: number | null): TransferProgress => ({
  loaded: percent,
  total: 100,
  percent,
  speed,
  secondsLeft,
});

describe("a task row's progress text", () => {
  it('stays while only the percent moves between two speed figures', () => {
    expect(sameText(progress(41, 5_000_000, 20), progress(42, 5_000_000, 20))).toBe(true);
  });

  it('follows new speed or time-left figures, with the percent of the moment', () => {
    expect(sameText(progress(41, 5_000_000, 20), progress(45, 6_000_000, 20))).toBe(false);
    expect(sameText(progress(41, 5_000_000, 20), progress(45, 5_000_000, 19))).toBe(false);
  });

  it('follows every percent when there is no speed to show', () => {
    expect(sameText(progress(41, 0, null), progress(42, 0, null))).toBe(false);
  });

  it('always shows the end', () => {
    expect(sameText(progress(99, 5_000_000, 0), progress(100, 5_000_000, 0))).toBe(false);
  });

  it('does not render again for an update that changes nothing shown', () => {
    expect(sameText(progress(42, 0, null), progress(42, 0, null))).toBe(true);
  });
});
