import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { FsItem } from '../../../contract/fs';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog, dialogStyles } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { makeFolder, renamePath } from '../../lib/api/fs';
import { toasts } from '../../lib/toast';
import { nameOf, nameProblem } from './explorer-path';

type NameDialogProps = { folder: string; onClose: () => void; onDone: () => void } & (
  | { mode: 'mkdir' }
  | { mode: 'rename'; item: FsItem }
);

/** One name, checked before it is sent: a new folder here, or a new name for an item. */
export function NameDialog(props: NameDialogProps) {
  const { t } = useLingui();
  const original = props.mode === 'rename' ? props.item.name : '';
  const [name, setName] = useState(original);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const problems = {
    required: t`Enter a name`,
    invalid: t`A name cannot be . or .. or contain / or \\`,
    too_long: t`The name is too long (255 bytes at most)`,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setError(problems[problem]);
    const clean = name.trim();
    if (props.mode === 'rename' && clean === original) return props.onClose();
    setSaving(true);
    try {
      if (props.mode === 'mkdir') {
        await makeFolder(`${props.folder}${clean}/`);
        toasts.success(t`Folder ${clean} created`);
      } else {
        const suffix = props.item.isDirectory ? '/' : '';
        await renamePath(props.item.path, `${props.folder}${clean}${suffix}`);
        toasts.success(t`Renamed ${original} to ${clean}`);
      }
      props.onDone();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={props.mode === 'mkdir' ? t`New folder` : t`Rename ${original}`}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field label={props.mode === 'mkdir' ? t`Folder name` : t`New name`} error={error}>
          <input
            value={name}
            autoFocus
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            onFocus={(event) => {
              // Select the name without its extension, as file managers do.
              const dot = event.target.value.lastIndexOf('.');
              event.target.setSelectionRange(0, dot > 0 && props.mode === 'rename' && !props.item.isDirectory ? dot : event.target.value.length);
            }}
          />
        </Field>
        <div className={dialogStyles.actions}>
          <Button onClick={props.onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {props.mode === 'mkdir' ? t`Create` : t`Rename`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Asks before deleting; folders go with everything in them. */
export function DeleteDialog({ paths, onClose, onConfirm }: { paths: string[]; onClose: () => void; onConfirm: () => void }) {
  const { t } = useLingui();
  const folders = paths.filter((path) => path.endsWith('/')).length;
  const first = nameOf(paths[0] ?? '');
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={paths.length === 1 ? t`Delete ${first}?` : t`Delete ${paths.length} items?`}
      description={
        folders > 0
          ? t`Folders are deleted with everything in them. This cannot be undone.`
          : t`This cannot be undone.`
      }
      confirmLabel={t`Delete`}
      onConfirm={onConfirm}
    />
  );
}
