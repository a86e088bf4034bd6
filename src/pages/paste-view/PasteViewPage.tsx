import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Copy from 'lucide-react/icons/copy';
import Eye from 'lucide-react/icons/eye';
import FileCode from 'lucide-react/icons/file-code';
import FileX from 'lucide-react/icons/file-x';
import Pencil from 'lucide-react/icons/pencil';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useParams } from 'wouter';
import type { PublicPaste } from '../../../contract/pastes';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { MarkdownView } from '../../components/MarkdownView';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { PasswordGate } from '../../components/PasswordGate';
import { getPaste, pasteShareUrl, rawPasteUrl, unlockPaste } from '../../lib/api/pastes';
import { renderMarkdown } from '../../lib/markdown/render';
import { copyText } from '../../lib/clipboard';
import { formatCount, formatDateTime } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import styles from './PasteView.module.css';

/** Only owners edit: visitors never load the dialog's code. */
const PasteEditDialog = lazy(() => import('../../components/paste-edit/PasteEditDialog').then((m) => ({ default: m.PasteEditDialog })));

/** The paste once its content has been sanitised from the server's HTML: the page's render finds it done. */
async function withMarkdownRendered(paste: PublicPaste): Promise<PublicPaste> {
  if (paste.content !== undefined) await renderMarkdown(paste.content, paste.contentHtml);
  return paste;
}

export default function PasteViewPage() {
  const { t, i18n } = useLingui();
  const { slug = '' } = useParams<{ slug: string }>();
  const load = useCallback(() => getPaste(slug).then(withMarkdownRendered), [slug]);
  const result = useResource(load);
  const [unlocked, setUnlocked] = useState<{ paste: PublicPaste; password: string }>();
  const [editing, setEditing] = useState(false);

  if (result.status === 'loading' && !result.data) return <PageSkeleton lines={8} />;
  if (result.status === 'error') {
    const { status, message } = result.error;
    if (status === 404) {
      return (
        <Notice icon={<FileX size={32} />} title={t`Share not found`} actions={<HomeLink />}>
          {t`There is no share at this link. Check the address, or ask for a new link.`}
        </Notice>
      );
    }
    if (status === 410) {
      return (
        <Notice icon={<Clock size={32} />} title={t`This share has expired or been used up`} actions={<HomeLink />}>
          {t`It reached its expiry time or its view limit and can no longer be opened.`}
        </Notice>
      );
    }
    return (
      <Notice role="alert" title={t`The share could not be loaded`} actions={<Button onClick={result.reload}>{t`Retry`}</Button>}>
        {message}
      </Notice>
    );
  }

  const paste = unlocked?.paste ?? result.data;
  if (!paste) return null;
  if (paste.content === undefined) {
    return (
      <PasswordGate
        title={t`This share is protected`}
        onPassword={async (password) => setUnlocked({ paste: await unlockPaste(slug, password).then(withMarkdownRendered), password })}
      />
    );
  }

  const copy = async (text: string, done: string) => {
    if (await copyText(text)) toasts.success(done);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };
  const count = paste.views;
  // Written here, not by Lingui's `#`: see formatCount.
  const shown = formatCount(count);
  const limit = formatCount(paste.maxViews);
  const views =
    paste.maxViews > 0
      ? t`${shown} of ${limit} views`
      : plural(count, { one: `${shown} view`, other: `${shown} views` });

  return (
    <article className={styles.article}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{paste.remark || t`Shared text`}</h1>
          <p className={styles.meta}>
            <span>{formatDateTime(paste.createdAt, i18n.locale)}</span>
            <span>
              <Eye size={14} aria-hidden /> {views}
            </span>
            <span>
              <Clock size={14} aria-hidden />{' '}
              {paste.expiresAt ? t`Expires ${formatDateTime(paste.expiresAt, i18n.locale)}` : t`Never expires`}
            </span>
          </p>
        </div>
        <div className={styles.actions}>
          <Button size="small" onClick={() => copy(paste.content ?? '', t`Content copied`)}>
            <Copy size={15} aria-hidden />
            {t`Copy content`}
          </Button>
          <Button size="small" onClick={() => copy(pasteShareUrl(paste.slug), t`Link copied`)}>
            {t`Copy link`}
          </Button>
          <LinkButton size="small" external href={rawPasteUrl(paste.slug, unlocked?.password)}>
            <FileCode size={15} aria-hidden />
            {t`Raw`}
          </LinkButton>
          {paste.canEdit && paste.id && (
            <Button size="small" variant="primary" onClick={() => setEditing(true)}>
              <Pencil size={15} aria-hidden />
              {t`Edit`}
            </Button>
          )}
        </div>
      </header>
      <MarkdownView markdown={paste.content} unsafeHtml={paste.contentHtml} className={styles.body} label={t`Shared content`} />
      {editing && paste.id && (
        <Suspense fallback={null}>
          <PasteEditDialog
            id={paste.id}
            onClose={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              toasts.success(t`Share updated`);
              if (saved.slug !== slug) window.history.replaceState(null, '', `/paste/${encodeURIComponent(saved.slug)}`);
              result.reload();
            }}
          />
        </Suspense>
      )}
    </article>
  );
}

function HomeLink() {
  const { t } = useLingui();
  return (
    <LinkButton href="/">{t`Back to home`}</LinkButton>
  );
}
