import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../contract/envelope';
import { INDEX_RESCAN_MINUTES_MAX, type MountIndex } from '../../../../contract/search';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { setIndexRescan } from '../../../lib/api/search';
import { parseRescanMinutes, type RescanProblem } from './index-form';

/** How often a mount is read again for changes made outside Clipstash; 0 turns it off. */
export function RescanDialog({ index, onClose, onSaved }: { index: MountIndex; onClose: () => void; onSaved: (minutes: number) => void }) {
  const { t } = useLingui();
  const [text, setText] = useState(String(index.rescanMinutes));
  const [problem, setProblem] = useState<RescanProblem>();
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const max = INDEX_RESCAN_MINUTES_MAX;
  const problemText: Record<RescanProblem, string> = {
    required: t`Please enter a number of minutes`,
    must_be_integer: t`Whole minutes, for example 60`,
    must_not_be_negative: t`0 or more minutes`,
    too_large: t`At most ${max} minutes (a week)`,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseRescanMinutes(text);
    setProblem(parsed.ok ? undefined : parsed.problem);
    if (!parsed.ok) return;
    setSaving(true);
    setServerError(undefined);
    try {
      await setIndexRescan(index.mountId, parsed.rescanMinutes);
      onSaved(parsed.rescanMinutes);
    } catch (error) {
      setServerError(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t`Rescan of ${index.mountPath}`}>
      <form onSubmit={submit} noValidate>
        {serverError && (
          <p className={fieldStyles.error} role="alert">
            {serverError}
          </p>
        )}
        <Field
          label={t`Rescan every (minutes)`}
          hint={t`A rescan finds changes made outside Clipstash. 0 turns it off, for example for a big remote storage.`}
          error={problem && problemText[problem]}
        >
          <input name="rescanMinutes" type="number" inputMode="numeric" min={0} max={max} step={1} value={text} onChange={(event) => setText(event.target.value)} />
        </Field>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : t`Save`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
