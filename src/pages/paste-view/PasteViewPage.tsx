import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import Clock from 'lucide-react/icons/clock';
import Copy from 'lucide-react/icons/copy';
import Eye from 'lucide-react/icons/eye';
import FileCode from 'lucide-react/icons/file-code';
import FileX from 'lucide-react/icons/file-x';
import KeyRound from 'lucide-react/icons/key-round';
import Pencil from 'lucide-react/icons/pencil';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useParams } from 'wouter';
import { asRequestFailure } from '../../../contract/envelope';
import type { PublicPaste } from '../../../contract/public-paste';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { MarkdownView } from '../../components/MarkdownView';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { pasteShareUrl, rawPasteUrl } from '../../lib/api/paste-links';
import { getPaste, peekPaste, unlockPaste } from '../../lib/api/paste-reads';
import { copyText } from '../../lib/clipboard';
import { linkWithKey } from '../../lib/crypto/link-key';
import { renderMarkdown } from '../../lib/markdown/render';
import { formatCount, formatDateTime } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import { KeyProblem, PasteGate, PastePasswordGate } from './PasteGate';
import styles from './PasteView.module.css';
import { firstLook, type ShownPaste } from './paste-opening';

/** Only owners edit: visitors never load the dialog's code. */
const PasteEditDialog = lazy(() => import('../../components/paste-edit/PasteEditDialog').then((m) => ({ default: m.PasteEditDialog })));
/** Only owners see who opened their share: visitors never load its code. */
const AccessLogPanel = lazy(() => import('../../components/access-log/AccessLogPanel'));

/** The cipher: its code loads only for an encrypted paste. */
const loadCipher = () => import('../../lib/crypto/paste-cipher');

/**
 * The paste ready to show: decrypted with the key of the link's fragment when it is encrypted, and its Markdown
 * rendered and sanitised (from the server's HTML, where it sent one): the page's render finds it done.
 */
async function prepared(paste: PublicPaste, hash: string): Promise<ShownPaste> {
  if (paste.content === undefined) return { paste };
  if (!paste.encryption) {
    await renderMarkdown(paste.content, paste.contentHtml);
    return { paste, text: paste.content };
  }
  const { openWithLinkKey, PasteCipherError } = await loadCipher();
  try {
    const { text, keyText } = await openWithLinkKey(paste.content, hash);
    await renderMarkdown(text);
    return { paste, text, keyText };
  } catch (error) {
    if (error instanceof PasteCipherError) return { paste, failure: error.reason };
    throw error;
  }
}

export default function PasteViewPage() {
  const { t, i18n } = useLingui();
  const { slug = '' } = useParams<{ slug: string }>();
  // The fragment the page was opened with, which holds an encrypted paste's key: a link inside the paste to one
  // of its headings replaces the address's.
  const [hash] = useState(() => window.location.hash);
  const open = useCallback((at: string) => getPaste(at).then((paste) => prepared(paste, hash)), [hash]);
  const load = useCallback(
    () =>
      firstLook({
        peek: () => peekPaste(slug),
        open: () => open(slug),
        linkKeyProblem: () => loadCipher().then((cipher) => cipher.linkKeyProblem(hash)),
      }),
    [slug, hash, open],
  );
  const result = useResource(load);
  /** The paste opened at the gate, unlocked with its password, or fetched again after an edit. */
  const [opened, setOpened] = useState<ShownPaste>();
  const [password, setPassword] = useState<string>();
  const [editing, setEditing] = useState(false);
  const unlock = async (given: string) => {
    setOpened(await unlockPaste(slug, given).then((paste) => prepared(paste, hash)));
    setPassword(given);
  };

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

  const look = result.data;
  const current = opened ?? (look?.kind === 'paste' ? look.shown : undefined);
  if (!current) {
    if (look?.kind === 'link') return <KeyProblem problem={look.problem} actions={<HomeLink />} />;
    if (look?.kind === 'gate') return <PasteGate peek={look.peek} onShow={async () => setOpened(await open(slug))} onPassword={unlock} />;
    return null;
  }
  const { paste, text, keyText } = current;
  if (current.failure) return <KeyProblem problem={current.failure} actions={<HomeLink />} />;
  if (text === undefined) return <PastePasswordGate onPassword={unlock} />;
  /** A link that opens this paste: with its key, when it is encrypted. */
  const withKey = (url: string) => (keyText ? linkWithKey(url, keyText) : url);

  const copy = async (value: string, done: string) => {
    if (await copyText(value)) toasts.success(done);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };
  // This was the last view: the link and the raw text will not open again, so neither is offered.
  const usedUp = !paste.canEdit && paste.maxViews > 0 && paste.views >= paste.maxViews;
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
            {paste.encryption && (
              <span className={styles.encrypted}>
                <KeyRound size={14} aria-hidden /> {t`End-to-end encrypted`}
              </span>
            )}
          </p>
        </div>
        <div className={styles.actions}>
          <Button size="small" onClick={() => copy(text, t`Content copied`)}>
            <Copy size={15} aria-hidden />
            {t`Copy content`}
          </Button>
          {!usedUp && (
            <Button size="small" onClick={() => copy(withKey(pasteShareUrl(paste.slug)), t`Link copied`)}>
              {t`Copy link`}
            </Button>
          )}
          {!usedUp && !paste.encryption && (
            <LinkButton size="small" external href={rawPasteUrl(paste.slug, password)}>
              <FileCode size={15} aria-hidden />
              {t`Raw`}
            </LinkButton>
          )}
          {paste.canEdit && paste.id && (
            <Button size="small" variant="primary" onClick={() => setEditing(true)}>
              <Pencil size={15} aria-hidden />
              {t`Edit`}
            </Button>
          )}
        </div>
      </header>
      {usedUp && (
        <p className={styles.lastViewNote} role="status">
          {t`That was the last view: this link will not open again. Copy the text now if you want to keep it.`}
        </p>
      )}
      <MarkdownView markdown={text} unsafeHtml={paste.contentHtml} className={styles.body} label={t`Shared content`} />
      {paste.canEdit && (
        <Suspense fallback={null}>
          <AccessLogPanel shares="pastes" slug={paste.slug} />
        </Suspense>
      )}
      {editing && paste.id && (
        <Suspense fallback={null}>
          <PasteEditDialog
            id={paste.id}
            keyText={keyText}
            onClose={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              toasts.success(t`Share updated`);
              if (saved.slug !== slug) window.history.replaceState(null, '', withKey(`/paste/${encodeURIComponent(saved.slug)}`));
              // The owner spends no view: the paste is fetched again at once, past any gate.
              open(saved.slug).then(setOpened, (failure: unknown) => toasts.error(asRequestFailure(failure).message));
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
