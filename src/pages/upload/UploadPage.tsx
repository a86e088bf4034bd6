import * as Tabs from '@radix-ui/react-tabs';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { FileUp, Link2, LogIn, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { uploadMimeType, type FileShare } from '../../../contract/files';
import { slugProblem } from '../../../contract/slugs';
import { useAppActors, useAuth } from '../../app/actors';
import type { UploadPayload } from '../../app/task-runner';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { listStorageConfigs } from '../../lib/api/storage-configs';
import { getMaxUploadSizeMb } from '../../lib/api/system';
import { formatBytes } from '../../lib/format';
import { recentUploads, type RecentUpload } from '../../lib/recent-uploads';
import { useResource } from '../../lib/use-resource';
import { DropZone } from './DropZone';
import { RecentUploads } from './RecentUploads';
import { emptyUploadForm, FILE_EXPIRY_HOURS, shareOptionsFor, type FileExpiryHours, type UploadFormValues } from './upload-options';
import styles from './Upload.module.css';
import { UploadTaskRow } from './UploadTaskRow';

export default function UploadPage() {
  const { t } = useLingui();
  const auth = useAuth();
  const canUpload = auth.role === 'admin' || (auth.role === 'apiKey' && Boolean(auth.permissions?.file));
  return (
    <div className={styles.page}>
      <header>
        <h1>{t`File upload`}</h1>
        <p className={styles.lead}>{t`Upload files and share each with its own short link.`}</p>
      </header>
      {canUpload ? (
        <Tabs.Root defaultValue="files">
          <Tabs.List className={styles.tabs} aria-label={t`Upload method`}>
            <Tabs.Trigger className={styles.tab} value="files">
              <FileUp size={16} aria-hidden />
              {t`File upload`}
            </Tabs.Trigger>
            <Tabs.Trigger className={styles.tab} value="url">
              <Link2 size={16} aria-hidden />
              {t`URL upload`}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="files">
            <FileUploadPanel />
          </Tabs.Content>
          <Tabs.Content value="url">
            <Notice level={2} title={t`URL upload`}>
              {t`Uploading straight from a web address is not built yet. It will arrive with the transfer engine.`}
            </Notice>
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        <Notice
          level={2}
          icon={<LogIn size={28} />}
          title={t`Log in to upload`}
          actions={
            <LinkButton href="/admin" variant="primary">
              {t`Log in`}
            </LinkButton>
          }
        >
          {auth.role === 'apiKey'
            ? t`Your API key has no file permission, so it cannot upload files.`
            : t`Uploading needs an admin login or an API key with file permission.`}
        </Notice>
      )}
    </div>
  );
}

function FileUploadPanel() {
  const { t } = useLingui();
  const { tasks } = useAppActors();
  const configs = useResource(listStorageConfigs);
  const maxSize = useResource(getMaxUploadSizeMb);
  const [files, setFiles] = useState<File[]>([]);
  const [configId, setConfigId] = useState<string>();
  const [values, setValues] = useState<UploadFormValues>(emptyUploadForm);
  const [error, setError] = useState<string>();
  const [batch, setBatch] = useState<string[]>([]);
  const [recent, setRecent] = useState<RecentUpload[]>(() => recentUploads.list());
  const set = <K extends keyof UploadFormValues>(field: K, value: UploadFormValues[K]) =>
    setValues((previous) => ({ ...previous, [field]: value }));

  const defaultConfig = configs.data?.find((config) => config.is_default) ?? configs.data?.[0];
  const selectedConfig = configId ?? defaultConfig?.id;

  const allTasks = useSelector(tasks, (state) => state.context.tasks);
  const batchTasks = useMemo(() => allTasks.filter((task) => batch.includes(task.id)), [allTasks, batch]);

  // Record each finished upload of this page among the recent ones, once.
  const recorded = useRef(new Set<string>());
  const remember = useCallback((share: FileShare) => {
    if (recorded.current.has(share.id)) return;
    recorded.current.add(share.id);
    setRecent(recentUploads.add({ slug: share.slug, filename: share.filename, size: share.size, uploadedAt: share.created_at }));
  }, []);
  useEffect(() => {
    const subscriptions = batchTasks.map((task) =>
      task.ref.subscribe((state) => {
        if (state.value === 'completed' && state.context.result) remember(state.context.result as FileShare);
      }),
    );
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [batchTasks, remember]);

  const expiryText: Record<FileExpiryHours, string> = {
    0: t`Never`,
    1: t`1 hour`,
    24: t`1 day`,
    168: t`7 days`,
    720: t`30 days`,
  };

  const start = (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) return setError(t`Choose at least one file`);
    const limitMb = maxSize.data;
    const tooBig = limitMb !== undefined ? files.find((file) => file.size > limitMb * 1024 * 1024) : undefined;
    if (tooBig && limitMb !== undefined) {
      return setError(t`${tooBig.name} is ${formatBytes(tooBig.size)}, over the ${formatBytes(limitMb * 1024 * 1024)} upload limit`);
    }
    const slug = values.slug.trim();
    if (files.length === 1 && slug && slugProblem(slug)) return setError(t`Only letters, digits, hyphen and underscore, at most 50 characters`);
    if (values.maxViews.trim() && !/^\d+$/.test(values.maxViews.trim())) return setError(t`Enter a whole number, 0 or more`);
    setError(undefined);
    const ids: string[] = [];
    for (const file of files) {
      const id = crypto.randomUUID();
      const payload: UploadPayload = {
        file,
        mimetype: uploadMimeType(file.name, file.type),
        ...(selectedConfig && { storageConfigId: selectedConfig }),
        options: shareOptionsFor(values, files.length),
      };
      tasks.send({ type: 'tasks.add', task: { id, type: 'upload', label: file.name, payload } });
      ids.push(id);
    }
    setBatch(ids);
    setFiles([]);
  };

  return (
    <div className={styles.panel}>
      <form onSubmit={start} noValidate className={styles.form}>
        <DropZone onFiles={(chosen) => setFiles((previous) => [...previous, ...chosen])} />
        {files.length > 0 && (
          <ul className={styles.chosen} aria-label={t`Chosen files`}>
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`}>
                <span className={styles.taskName}>{file.name}</span>
                <span className={styles.taskMeta}>{formatBytes(file.size)}</span>
                <Button size="small" variant="ghost" aria-label={t`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, i) => i !== index))}>
                  <Trash2 size={15} aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className={styles.options}>
          <Field label={t`Storage`}>
            <select name="storage" value={selectedConfig ?? ''} onChange={(e) => setConfigId(e.target.value)} disabled={!configs.data}>
              {configs.data?.map((config) => (
                <option key={config.id} value={config.id}>
                  {config.is_default ? t`${config.name} (default)` : config.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t`Link suffix`} hint={files.length > 1 ? t`Only for a single file` : t`Leave empty for a random link`}>
            <input name="slug" className="mono" value={values.slug} disabled={files.length > 1} onChange={(e) => set('slug', e.target.value)} />
          </Field>
          <Field label={t`Remark`}>
            <input name="remark" maxLength={500} value={values.remark} onChange={(e) => set('remark', e.target.value)} />
          </Field>
          <Field label={t`Password`} hint={t`Optional; visitors must enter it`}>
            <input name="password" type="password" autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.target.value)} />
          </Field>
          <Field label={t`Expires after`}>
            <select name="expiresIn" value={values.expiresIn} onChange={(e) => set('expiresIn', Number(e.target.value) as FileExpiryHours)}>
              {FILE_EXPIRY_HOURS.map((hours) => (
                <option key={hours} value={hours}>
                  {expiryText[hours]}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t`Max views`} hint={t`0 or empty means unlimited`}>
            <input name="maxViews" type="number" min={0} step={1} value={values.maxViews} onChange={(e) => set('maxViews', e.target.value)} />
          </Field>
        </div>
        <div className={styles.submitRow}>
          <Button type="submit" variant="primary" disabled={files.length === 0}>
            <FileUp size={17} aria-hidden />
            {files.length > 1 ? t`Upload ${files.length} files` : t`Upload`}
          </Button>
          {maxSize.data !== undefined && (
            <span className={styles.taskMeta}>{t`Up to ${formatBytes(maxSize.data * 1024 * 1024)} per file`}</span>
          )}
        </div>
      </form>
      {batchTasks.length > 0 && (
        <ul className={styles.tasks} aria-label={t`Uploads`}>
          {batchTasks.map((task) => (
            <UploadTaskRow key={task.id} task={task.ref} />
          ))}
        </ul>
      )}
      <RecentUploads items={recent} />
    </div>
  );
}
