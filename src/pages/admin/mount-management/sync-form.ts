import { parseFsPath } from '../../../../contract/fs-paths';
import type { SyncMode, SyncSchedule, SyncScheduleBody } from '../../../../contract/jobs';

export interface SyncFormValues {
  source: string;
  target: string;
  cron: string;
  mode: SyncMode;
  enabled: boolean;
  confirmMirror: boolean;
}

export type SyncFormErrors = Partial<Record<'source' | 'target' | 'cron' | 'confirmMirror', 'required' | 'invalid' | 'overlap'>>;

export const DEFAULT_SYNC_CRON = '0 3 * * *';

export const syncValuesOf = (schedule?: SyncSchedule): SyncFormValues =>
  schedule
    ? { source: schedule.source, target: schedule.target, cron: schedule.cron, mode: schedule.mode, enabled: schedule.enabled, confirmMirror: schedule.mode === 'mirror' }
    : { source: '', target: '', cron: DEFAULT_SYNC_CRON, mode: 'copy-new-and-changed', enabled: true, confirmMirror: false };

const within = (path: string, base: string) => base === '/' || path === base || path.startsWith(`${base}/`);

/** The form's own checks before anything is sent; the server checks again (mounts, the cron expression). */
export function validateSyncForm(values: SyncFormValues): SyncFormErrors {
  const errors: SyncFormErrors = {};
  const normal: Partial<Record<'source' | 'target', string>> = {};
  for (const field of ['source', 'target'] as const) {
    const text = values[field].trim();
    const parsed = parseFsPath(text);
    if (!text) errors[field] = 'required';
    else if (!text.startsWith('/') || !parsed.ok) errors[field] = 'invalid';
    else normal[field] = parsed.value.text;
  }
  const { source, target } = normal;
  if (source && target && (within(source, target) || within(target, source))) errors.target = 'overlap';
  const fields = values.cron.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) errors.cron = fields.length === 0 ? 'required' : 'invalid';
  if (values.mode === 'mirror' && !values.confirmMirror) errors.confirmMirror = 'required';
  return errors;
}

export const syncBodyOf = (values: SyncFormValues): SyncScheduleBody => ({
  source: values.source.trim(),
  target: values.target.trim(),
  cron: values.cron.trim().replace(/\s+/g, ' '),
  mode: values.mode,
  enabled: values.enabled,
  confirmMirror: values.mode === 'mirror' && values.confirmMirror,
});
