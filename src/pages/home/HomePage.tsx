import { useLingui } from '@lingui/react/macro';
import { useMachine } from '@xstate/react';
import { CircleCheck, History, LogIn, Plus, Share2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { asRequestFailure } from '../../../contract/envelope';
import { SHARE_TARGET_UNAVAILABLE_PARAM, SHARED_PARAM } from '../../../contract/share-target';
import { draftMachine } from '../../../machines/draft.machine';
import { useAuth } from '../../app/use-auth';
import { Button } from '../../components/Button';
import { LinkButton } from '../../components/LinkButton';
import { pasteShareUrl, rawPasteUrl } from '../../lib/api/paste-links';
import { createPaste } from '../../lib/api/pastes';
import { copyText } from '../../lib/clipboard';
import { linkWithKey } from '../../lib/crypto/link-key';
import { downloadBlob, safeFilename } from '../../lib/download';
import { draftStore } from '../../lib/drafts';
import { elementToPng } from '../../lib/export/png';
import { formatDateTime } from '../../lib/format';
import { loginHref } from '../../lib/login-return';
import { shareInbox, sharedText } from '../../lib/share-inbox';
import { toasts } from '../../lib/toast';
import { EditorToolbar } from './EditorToolbar';
import styles from './Home.module.css';
import { MarkdownEditor, type EditorHandle } from '../../components/markdown-editor/MarkdownEditor';
import { ShareForm } from './ShareForm';
import { expiresAtFor, type ShareFormValues } from './share-options';

const DRAFT_ID = 'home';
/** Back from the login page this editor sent the person to: the stored draft is put back at once (draft machine). */
const RESUME_PARAM = 'resume';

/** The text encrypted under a new key, and the key as a link carries it; the cipher loads with the first use. */
async function sealContent(text: string) {
  const { encryptText, exportPasteKey, generatePasteKey } = await import('../../lib/crypto/paste-cipher');
  const key = await generatePasteKey();
  return { content: await encryptText(key, text), keyText: await exportPasteKey(key) };
}

// None is part of the page's first render: their code (Markdown rendering and sanitising, a dialog, the QR code)
// loads when they are shown; the preview's with the first character typed.
const MarkdownView = lazy(() => import('../../components/MarkdownView').then((module) => ({ default: module.MarkdownView })));
const ConfirmDialog = lazy(() => import('../../components/ConfirmDialog').then((module) => ({ default: module.ConfirmDialog })));
const ShareLinkDisplay = lazy(() =>
  import('../../components/share-link/ShareLinkDisplay').then((module) => ({ default: module.ShareLinkDisplay })),
);

export default function HomePage() {
  const { t, i18n } = useLingui();
  const auth = useAuth();
  const canShare = auth.role === 'admin' || (auth.role === 'apiKey' && Boolean(auth.permissions?.text));
  const editor = useRef<EditorHandle>(null);
  const preview = useRef<HTMLDivElement>(null);
  const [content, setContent] = useState('');
  const [plainText, setPlainText] = useState(false);
  const [showPreview, setShowPreview] = useState(true);
  const [confirmClear, setConfirmClear] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [sharing, setSharing] = useState(false);
  /** The share just created, with the text it holds: the same text is not shared twice without a word. */
  const [shared, setShared] = useState<{ slug: string; url: string; rawUrl?: string; encrypted: boolean; content: string }>();
  const createdPanel = useRef<HTMLElement>(null);
  const createdHeadingId = useId();
  const [, navigate] = useLocation();
  const search = useSearch();
  // What the address brought, read once: it is cleared from the address at once (a reload must not redo it).
  const [arrival] = useState(() => {
    const query = new URLSearchParams(search);
    return { resume: query.has(RESUME_PARAM), shared: query.get(SHARED_PARAM), shareFailed: query.has(SHARE_TARGET_UNAVAILABLE_PARAM) };
  });

  const [draft, sendDraft] = useMachine(
    draftMachine.provide({
      actors: {
        loadDraft: fromPromise(() => draftStore.load(DRAFT_ID)),
        saveDraft: fromPromise(({ input }) => draftStore.save(DRAFT_ID, input.content)),
        deleteDraft: fromPromise(() => draftStore.remove(DRAFT_ID)),
      },
      actions: { fillEditor: (_, { content: text }) => editor.current?.setContent(text) },
    }),
    { input: { resume: arrival.resume } },
  );

  // Text or a link shared to the installed app (the share target, src/sw.ts) opens in the editor.
  useEffect(() => {
    const id = arrival.shared;
    if (id) {
      void shareInbox.get(id).then((entry) => {
        const text = entry && sharedText(entry);
        if (!text) return;
        editor.current?.setContent(text);
        return shareInbox.take(id, 'text');
      });
    }
    if (search) navigate('/', { replace: true });
    // Once, on arrival.
  }, []);

  // A new share's panel comes into view with the focus on its heading: the result of the click, where it is seen.
  useEffect(() => {
    if (!shared) return;
    createdPanel.current?.scrollIntoView({ block: 'start' });
    createdPanel.current?.querySelector('h2')?.focus({ preventScroll: true });
  }, [shared?.url]);

  const onChange = (text: string) => {
    setContent(text);
    sendDraft({ type: 'draft.changed', content: text });
  };

  const copy = async (format: 'markdown' | 'html' | 'text') => {
    const { markdownToHtml, markdownToPlainText } = await import('../../lib/markdown/render');
    const text = format === 'markdown' ? content : format === 'html' ? await markdownToHtml(content) : await markdownToPlainText(content);
    if (await copyText(text)) toasts.success(t`Copied to the clipboard`);
    else toasts.error(t`Copy failed, please copy it by hand`);
  };

  const exportAs = async (format: 'docx' | 'png') => {
    if (!content.trim()) return toasts.error(t`Write something first`);
    setExporting(true);
    try {
      const title = content.trim().split('\n')[0]?.replace(/^#+\s*/, '') ?? 'clipstash';
      // The Markdown-to-Word walk loads with the first export, as the docx library it drives does.
      if (format === 'docx') {
        const { markdownToDocx } = await import('../../lib/export/docx');
        downloadBlob(await markdownToDocx(content), safeFilename(title, 'docx'));
      } else {
        if (!preview.current) setShowPreview(true);
        const target = preview.current;
        if (!target) return toasts.error(t`Open the preview to export a picture`);
        downloadBlob(await elementToPng(target), safeFilename(title, 'png'));
      }
      toasts.success(t`Export finished`);
    } catch (error) {
      toasts.error(t`Export failed: ${asRequestFailure(error).message}`);
    } finally {
      setExporting(false);
    }
  };

  const importFile = async (file: File) => {
    const text = await file.text();
    editor.current?.setContent(text);
    toasts.success(t`Imported ${file.name}`);
  };

  /** Resolves true when the share was created. */
  const share = async (values: ShareFormValues): Promise<boolean> => {
    setSharing(true);
    try {
      const sealed = values.encrypt ? await sealContent(content) : undefined;
      const paste = await createPaste({
        ...(sealed ? { content: sealed.content, encryption: 'aes-256-gcm' as const } : { content }),
        ...(values.remark.trim() && { remark: values.remark.trim() }),
        ...(values.slug.trim() && { slug: values.slug.trim() }),
        ...(values.password && { password: values.password }),
        expiresAt: expiresAtFor(values.expiry, new Date()),
        maxViews: values.maxViews.trim() ? Number(values.maxViews) : 0,
      });
      // The key goes into every link shown, and nowhere else: it is gone once the panel is.
      const withKey = (url: string) => (sealed ? linkWithKey(url, sealed.keyText) : url);
      setShared({
        slug: paste.slug,
        url: withKey(pasteShareUrl(paste.slug)),
        // The raw text of an encrypted paste is its ciphertext: no raw link is offered for it.
        ...(!sealed && { rawUrl: rawPasteUrl(paste.slug, values.password || undefined) }),
        encrypted: sealed !== undefined,
        content,
      });
      sendDraft({ type: 'draft.clear' });
      return true;
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
      return false;
    } finally {
      setSharing(false);
    }
  };

  const startNewPaste = () => {
    editor.current?.setContent('');
    sendDraft({ type: 'draft.clear' });
    setShared(undefined);
    editor.current?.focus();
  };

  const showingPreview = !plainText && showPreview;
  // The same text again would be a second link for it: the form says so, instead of quietly making one.
  const sharedAlready = shared !== undefined && content === shared.content;
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1>{t`Online clipboard`}</h1>
        <p className={styles.lead}>{t`Write or paste text, then share it with a short link.`}</p>
      </header>

      {arrival.shareFailed && (
        <p className={styles.banner} role="status">
          <Share2 size={18} aria-hidden />
          <span>{t`What you shared did not reach Clipstash: the app was still being set up in this browser. Please share it again.`}</span>
        </p>
      )}

      {!canShare && (
        <div className={styles.banner}>
          <LogIn size={18} aria-hidden />
          <span>
            {auth.role === 'apiKey'
              ? t`Your API key has no text permission, so it cannot create text shares.`
              : t`Creating a share needs an admin login or an API key with text permission.`}
          </span>
          {/* Back here after the login, with the text: it is saved now, and put back at once on return. (A key
              already signed in would be sent straight back: it goes to its panel, to sign out.) */}
          <LinkButton
            href={auth.role === 'apiKey' ? '/admin' : loginHref(content.trim() ? `/?${RESUME_PARAM}` : '/')}
            variant="primary"
            size="small"
            onClick={() => sendDraft({ type: 'draft.flush' })}
          >
            {t`Log in`}
          </LinkButton>
        </div>
      )}

      {draft.matches('offering') && draft.context.offer && (
        <div className={styles.banner} role="status">
          <History size={18} aria-hidden />
          <span>{t`An unsaved draft from ${formatDateTime(new Date(draft.context.offer.savedAt).toISOString(), i18n.locale)} was found.`}</span>
          <Button size="small" variant="primary" onClick={() => sendDraft({ type: 'draft.restore' })}>
            {t`Restore draft`}
          </Button>
          <Button size="small" onClick={() => sendDraft({ type: 'draft.discard' })}>
            {t`Discard`}
          </Button>
        </div>
      )}

      <EditorToolbar
        plainText={plainText}
        showPreview={showPreview}
        busy={exporting}
        onTogglePlainText={() => setPlainText((value) => !value)}
        onTogglePreview={() => setShowPreview((value) => !value)}
        onCopy={copy}
        onExport={exportAs}
        onImport={importFile}
        onClear={() => setConfirmClear(true)}
      />
      <div className={showingPreview ? styles.workspace : styles.workspaceSingle}>
        <MarkdownEditor
          ref={editor}
          initial=""
          plainText={plainText}
          label={t`Content`}
          placeholder={t`Write Markdown or plain text here…`}
          onChange={onChange}
          className={styles.editor}
        />
        {showingPreview && (
          <div className={styles.preview}>
            {content.trim() ? (
              <Suspense fallback={null}>
                <MarkdownView ref={preview} markdown={content} label={t`Preview`} />
              </Suspense>
            ) : (
              <p className={styles.previewEmpty}>{t`The preview appears here as you type.`}</p>
            )}
          </div>
        )}
      </div>
      <p className={styles.draftState} aria-live="polite">
        {draft.hasTag('saving')
          ? t`Saving draft…`
          : draft.context.lastSavedAt
            ? t`Draft saved at ${new Date(draft.context.lastSavedAt).toLocaleTimeString(i18n.locale)}`
            : ''}
      </p>

      {shared && (
        <section ref={createdPanel} className={styles.created} aria-labelledby={createdHeadingId}>
          <h2 id={createdHeadingId} tabIndex={-1}>
            <CircleCheck size={20} aria-hidden />
            {t`Share created`}
          </h2>
          <Suspense fallback={null}>
            <ShareLinkDisplay url={shared.url} rawUrl={shared.rawUrl} name={shared.slug} encrypted={shared.encrypted} />
          </Suspense>
          <div>
            <Button onClick={startNewPaste}>
              <Plus size={16} aria-hidden />
              {t`New paste`}
            </Button>
          </div>
        </section>
      )}

      {canShare && <ShareForm content={content} busy={sharing} sharedAlready={sharedAlready} onShare={share} />}

      {confirmClear && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={setConfirmClear}
            title={t`Clear the content?`}
            description={t`The text and its saved draft are removed. This cannot be undone.`}
            confirmLabel={t`Clear`}
            onConfirm={() => {
              editor.current?.setContent('');
              sendDraft({ type: 'draft.clear' });
              setConfirmClear(false);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
