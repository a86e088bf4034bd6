import { useLingui } from '@lingui/react/macro';
import { FileUp, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { uploadMimeType } from '../../../contract/files';
import { shareBatchTask } from '../../app/share-tasks';
import type { ShareUploadPayload } from '../../../contract/transfer';
import { Button } from '../../components/Button';
import { formatBytes } from '../../lib/format';
import { DropZone } from './DropZone';
import { ShareOptionsFields } from './ShareOptionsFields';
import { shareOptionsFor } from './upload-options';
import { useUploadLimit } from './useUploadLimit';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import styles from './Upload.module.css';
import type { useUploadForm } from './useUploadForm';

/** Local files: drop or pick many; one is an upload task, several one task that shares each of them. */
export function FileUploadPanel({ form, sharedFiles }: { form: ReturnType<typeof useUploadForm>; sharedFiles: File[] }) {
  const { t } = useLingui();
  const limit = useUploadLimit();
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string>();
  // Files shared to the app join the list as dropped ones do: chosen, not sent.
  useEffect(() => {
    if (sharedFiles.length > 0) setFiles((previous) => [...previous, ...sharedFiles]);
  }, [sharedFiles]);
  // Said as soon as a file is chosen: the file must be removed before the others can go.
  const tooBig = files.map((file) => limit.problem(file.name, file.size)).find(Boolean);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) return setError(t`Choose at least one file`);
    if (tooBig) return;
    const problem = form.optionsProblem(files.length);
    if (problem) return setError(problem);
    setError(undefined);
    const options = shareOptionsFor(form.values, files.length, form.photoMetadata);
    const [only] = files;
    if (files.length === 1 && only) {
      const payload: ShareUploadPayload = {
        kind: 'shareUpload',
        file: only,
        mimetype: uploadMimeType(only.name, only.type),
        ...(form.selectedConfig && { storageConfigId: form.selectedConfig }),
        options,
      };
      form.start([{ id: crypto.randomUUID(), type: 'upload', label: only.name, payload }]);
    } else {
      // Files sent together are one task: one row, one list of links.
      const count = files.length;
      form.start([shareBatchTask(files, t`Share ${count} files`, options, form.selectedConfig)]);
    }
    setFiles([]);
  };

  return (
    <form onSubmit={submit} noValidate className={styles.form}>
      <DropZone onFiles={(chosen) => setFiles((previous) => [...previous, ...chosen])} />
      {files.length > 0 && (
        <ul className={styles.chosen} aria-label={t`Chosen files`}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              <span className={taskStyles.name}>{file.name}</span>
              <span className={taskStyles.meta}>{formatBytes(file.size)}</span>
              <Button size="small" variant="ghost" aria-label={t`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, i) => i !== index))}>
                <Trash2 size={15} aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {(error ?? tooBig) && (
        <p className="form-error" role="alert">
          {error ?? tooBig}
        </p>
      )}
      <ShareOptionsFields
        configs={form.configs.data}
        configId={form.selectedConfig}
        onConfig={form.setConfigId}
        values={form.values}
        onChange={form.setValue}
        slugDisabled={files.length > 1}
        photoMetadata={form.photoMetadata}
      />
      <div className={styles.submitRow}>
        <Button type="submit" variant="primary" disabled={files.length === 0 || Boolean(tooBig)}>
          <FileUp size={17} aria-hidden />
          {files.length > 1 ? t`Upload ${files.length} files` : t`Upload`}
        </Button>
        {limit.limitBytes !== undefined && <span className={taskStyles.meta}>{t`Up to ${formatBytes(limit.limitBytes)} per file`}</span>}
      </div>
    </form>
  );
}
