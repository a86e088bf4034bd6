import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Download from 'lucide-react/icons/download';
import Eye from 'lucide-react/icons/eye';
import FileX from 'lucide-react/icons/file-x';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { asRequestFailure } from '../../../contract/envelope';
import type { PublicFile } from '../../../contract/files';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { PasswordGate } from '../../components/PasswordGate';
import { absoluteApiUrl, deleteFile, getPublicFile, verifyFilePassword } from '../../lib/api/files';
import { formatBytes, formatCount, formatDateTime } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import styles from './FileView.module.css';
import { FilePreview } from '../../components/file-preview/FilePreview';

/** Only owners edit and delete: visitors never load the dialogs' code. */
const ConfirmDialog = lazy(() => import('../../components/ConfirmDialog').then((module) => ({ default: module.ConfirmDialog })));
const FileEditDialog = lazy(() => import('../../components/file-edit/FileEditDialog').then((module) => ({ default: module.FileEditDialog })));

type OpenFile = PublicFile & { previewUrl: string; downloadUrl: string };
const isOpen = (file: PublicFile): file is OpenFile => Boolean(file.previewUrl && file.downloadUrl);

export default function FileViewPage() {
  const { t, i18n } = useLingui();
  const { slug = '' } = useParams<{ slug: string }>();
  const [, navigate] = useLocation();
  const load = useCallback(() => getPublicFile(slug), [slug]);
  const result = useResource(load);
  const [unlocked, setUnlocked] = useState<PublicFile>();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (result.status === 'loading' && !result.data) return <PageSkeleton lines={8} />;
  if (result.status === 'error') {
    const { status, message } = result.error;
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
      <Notice role="alert" title={t`The file could not be loaded`} actions={<Button onClick={result.reload}>{t`Retry`}</Button>}>
        {message}
      </Notice>
    );
  }

  const file = unlocked ?? result.data;
  if (!file) return null;
  if (!isOpen(file)) {
    return (
      <PasswordGate title={t`This file is protected`} onPassword={async (password) => setUnlocked(await verifyFilePassword(slug, password))} />
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
          <dl className={styles.facts}>
            <div>
              <dt>{t`Size`}</dt>
              <dd>{formatBytes(file.size)}</dd>
            </div>
            <div>
              <dt>{t`Type`}</dt>
              <dd className="mono">{file.mimetype}</dd>
            </div>
            <div>
              <dt>{t`Uploaded`}</dt>
              <dd>{formatDateTime(file.created_at, i18n.locale)}</dd>
            </div>
            <div>
              <dt>
                <Eye size={14} aria-hidden /> {t`Views`}
              </dt>
              <dd>{views}</dd>
            </div>
            <div>
              <dt>
                <Clock size={14} aria-hidden /> {t`Expires`}
              </dt>
              <dd>{file.expiresAt ? formatDateTime(file.expiresAt, i18n.locale) : t`Never`}</dd>
            </div>
          </dl>
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
      <section className={styles.preview} aria-label={t`Preview`}>
        <FilePreview file={file} />
      </section>
      <Suspense fallback={null}>
        {editing && file.id && (
          <FileEditDialog
            file={{ ...file, id: file.id }}
            onClose={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              toasts.success(t`Share updated`);
              if (saved.slug !== slug) navigate(`/file/${encodeURIComponent(saved.slug)}`, { replace: true });
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
