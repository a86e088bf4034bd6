import { describe, expect, it } from 'vitest';
import { INDEX_RESCAN_MINUTES_MAX } from '../../../../contract/search';
import { parseRescanMinutes } from './index-form';

describe('parseRescanMinutes', () => {
  it('takes whole minutes from 0 (off) to a week, spaces around them allowed', () => {
    expect(parseRescanMinutes('0')).toEqual({ ok: true, rescanMinutes: 0 });
    expect(parseRescanMinutes(' 90 ')).toEqual({ ok: true, rescanMinutes: 90 });
    expect(parseRescanMinutes(String(INDEX_RESCAN_MINUTES_MAX))).toEqual({ ok: true, rescanMinutes: INDEX_RESCAN_MINUTES_MAX });
  });

  it('says why other text is refused', () => {
    expect(parseRescanMinutes('')).toEqual({ ok: false, problem: 'required' });
    expect(parseRescanMinutes('1.5')).toEqual({ ok: false, problem: 'must_be_integer' });
    expect(parseRescanMinutes('soon')).toEqual({ ok: false, problem: 'must_be_integer' });
    expect(parseRescanMinutes('-5')).toEqual({ ok: false, problem: 'must_not_be_negative' });
    expect(parseRescanMinutes(String(INDEX_RESCAN_MINUTES_MAX + 1))).toEqual({ ok: false, problem: 'too_large' });
  });
});
