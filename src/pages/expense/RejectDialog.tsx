import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { EXPENSE_NOTE_MAX } from '../../../contract/expenses';
import { Button } from '../../components/Button';
import { Dialog, dialogStyles } from '../../components/Dialog';
import { Field } from '../../components/Field';

interface RejectDialogProps {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onReject: (note: string) => void;
}

/** A rejection says why: the owner reads the note, edits the claim and submits it again. */
export function RejectDialog({ open, busy, onClose, onReject }: RejectDialogProps) {
  const { t } = useLingui();
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) return setMissing(true);
    onReject(note);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} title={t`Reject claim`} description={t`Say what is wrong, so that the owner can fix it and submit again.`}>
      <form onSubmit={submit} noValidate>
        <Field label={t`Reason`} error={missing ? t`Please say why the claim is rejected` : undefined}>
          <textarea
            name="note"
            rows={4}
            maxLength={EXPENSE_NOTE_MAX}
            value={note}
            onChange={(event) => {
              setNote(event.target.value);
              setMissing(false);
            }}
          />
        </Field>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {t`Reject`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
