import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Download from 'lucide-react/icons/download';
import FileX from 'lucide-react/icons/file-x';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { asRequestFailure, type RequestFailure } from '../../../contract/envelope';
import type { PublicFile } from '../../../contract/public-file';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { PasswordGate } from '../../components/PasswordGate';
import { absoluteApiUrl, deleteFile, getPublicFile, verifyFilePassword } from '../../lib/api/file-reads';
import { downloadUrl } from '../../lib/download';
import { formatCount } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import styles from './FileView.module.css';
import { FilePreview } from '../../components/file-preview/FilePreview';
import { FileFacts } from './FileFacts';
import { landOn } from './landing';
import { viewsLeftText } from '../../components/views-left';
import { SpendNote, ViewGate, type Spend } from './ViewGate';

/** Only owners edit and delete: visitors never load the dialogs' code. */
const ConfirmDialog = lazy(() => import('../../components/ConfirmDialog').then((module) => ({ default: module.ConfirmDialog })));
const FileEditDialog = lazy(() => import('../../components/file-edit/FileEditDialog').then((module) => ({ default: module.FileEditDialog })));
const AccessLogPanel = lazy(() => import('../../components/access-log/AccessLogPanel'));

type OpenFile = PublicFile & { previewUrl: string; downloadUrl: string };
const isOpen = (file: PublicFile): file is OpenFile => Boolean(file.previewUrl && file.downloadUrl);

export default function FileViewPage() {
  const { t } = useLingui();
  const { slug = '' } = useParams<{ slug: string }>();
  const [, navigate] = useLocation();
  const load = useCallback(() => landOn(slug), [slug]);
  const result = useResource(load);
  /** The file once opened here: from the gate, the password form, or a refresh after the owner's edit. */
  const [opened, setOpened] = useState<PublicFile>();
  /** Opening failed: someone else spent the last view meanwhile, say. */
  const [openFailure, setOpenFailure] = useState<RequestFailure>();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  /** Reads the share's info: it counts a view (none for its owner) and carries the signed links. */
  const open = async (spend: Spend = 'show') => {
    try {
      const file = await getPublicFile(slug);
      setOpened(file);
      if (spend === 'download' && file.downloadUrl) downloadUrl(absoluteApiUrl(file.downloadUrl), file.filename);
    } catch (error) {
      setOpenFailure(asRequestFailure(error));
    }
  };
  const retry = () => {
    setOpenFailure(undefined);
    result.reload();
  };

  if (result.status === 'loading' && !result.data) return <PageSkeleton lines={8} />;
  const failure = openFailure ?? (result.status === 'error' ? result.error : undefined);
  if (failure) {
    const { status, message } = failure;
    if (status === 404) {
      return (
        <Notice icon={<FileX size={32} />} title={t`File not found`} actions={<LinkButton href="/">{t`Back to home`}</LinkButton>}>
          {t`There is no file at this link. Check the address, or ask for a new link.`}
        </Notice>
      );
    }
    if (status === 410) {
      return (
        <Notice icon={<Clock size={32} />} title={t`This share has expired or been used up`} actions={<LinkButton href="/">{t`Back to home`}</LinkButton>}>
          {t`It reached its expiry time or its view limit and can no longer be opened.`}
        </Notice>
      );
    }
    return (
      <Notice role="alert" title={t`The file could not be loaded`} actions={<Button onClick={retry}>{t`Retry`}</Button>}>
        {message}
      </Notice>
    );
  }

  const landing = result.data;
  if (!opened && landing?.kind === 'gate') return <ViewGate peek={landing.peek} onOpen={open} />;
  const file = opened ?? (landing?.kind === 'file' ? landing.file : undefined);
  if (!file) return null;
  if (!isOpen(file)) {
    const viewsLeft = file.maxViews - file.views;
    return (
      <PasswordGate title={t`This file is protected`} onPassword={async (password) => setOpened(await verifyFilePassword(slug, password))}>
        {file.maxViews > 0 && (
          <div className={styles.lockedViews}>
            <p>{viewsLeftText(viewsLeft)}</p>
            <SpendNote viewsLeft={viewsLeft} />
          </div>
        )}
      </PasswordGate>
    );
  }

  const count = file.views;
  // Written here, not by Lingui's `#`: see formatCount.
  const shown = formatCount(count);
  const limit = formatCount(file.maxViews);
  const views =
    file.maxViews > 0
      ? t`${shown} of ${limit} views`
      : plural(count, { one: `${shown} view (unlimited)`, other: `${shown} views (unlimited)` });
  // Owners spend no views: only a visitor's view can be the one that used the share up.
  const usedUp = file.maxViews > 0 && file.views >= file.maxViews && !file.canEdit;
  const remove = async () => {
    if (!file.id) return;
    try {
      await deleteFile(file.id);
      toasts.success(t`File deleted`);
      navigate('/');
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    }
  };

  return (
    <article className={styles.article}>
      <header className={styles.header}>
        <div className={styles.titleBlock}>
          <h1 className={styles.title}>{file.filename}</h1>
          {file.remark && <p className={styles.remark}>{file.remark}</p>}
          <FileFacts size={file.size} mimetype={file.mimetype} uploadedAt={file.created_at} views={views} expiresAt={file.expiresAt} />
        </div>
        <div className={styles.actions}>
          <a className={styles.download} href={absoluteApiUrl(file.downloadUrl)} download={file.filename}>
            <Download size={16} aria-hidden />
            {t`Download`}
          </a>
          {file.canEdit && file.id && (
            <>
              <Button onClick={() => setEditing(true)}>
                <Pencil size={15} aria-hidden />
                {t`Edit`}
              </Button>
              <Button variant="ghost" onClick={() => setDeleting(true)}>
                <Trash2 size={15} aria-hidden />
                {t`Delete`}
              </Button>
            </>
          )}
        </div>
      </header>
      {usedUp && (
        <p className={styles.warning} role="status">
          {t`That was the last view: this link will not open again. Download the file now if you want to keep it.`}
        </p>
      )}
      <section className={styles.preview} aria-label={t`Preview`}>
        <FilePreview file={file} />
      </section>
      <Suspense fallback={null}>
        {file.canEdit && <AccessLogPanel shares="files" slug={file.slug} />}
        {editing && file.id && (
          <FileEditDialog
            file={{ ...file, id: file.id }}
            onClose={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              toasts.success(t`Share updated`);
              if (saved.slug !== slug) navigate(`/file/${encodeURIComponent(saved.slug)}`, { replace: true });
              // Only owners edit, and an owner's read spends no view.
              else if (opened) void open();
              else result.reload();
            }}
          />
        )}
        {deleting && (
          <ConfirmDialog
            open
            onOpenChange={setDeleting}
            title={t`Delete this file?`}
            description={t`The file and its link are removed for everyone. This cannot be undone.`}
            confirmLabel={t`Delete`}
            onConfirm={remove}
          />
        )}
      </Suspense>
    </article>
  );
}
