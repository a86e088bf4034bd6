import * as v from 'valibot';
import { updateIndexRequestSchema } from '../../../../contract/search';

export type RescanProblem = 'required' | 'must_be_integer' | 'must_not_be_negative' | 'too_large';

/** The minutes typed as the request's body, or why they cannot be (the contract's own checks, before sending). */
export function parseRescanMinutes(text: string): { ok: true; rescanMinutes: number } | { ok: false; problem: RescanProblem } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'required' };
  const parsed = v.safeParse(updateIndexRequestSchema, { rescanMinutes: Number(trimmed) });
  if (parsed.success) return { ok: true, rescanMinutes: parsed.output.rescanMinutes };
  const message = parsed.issues[0]?.message;
  const problem: RescanProblem = message === 'must_not_be_negative' || message === 'too_large' ? message : 'must_be_integer';
  return { ok: false, problem };
}
