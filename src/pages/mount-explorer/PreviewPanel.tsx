import { useLingui } from '@lingui/react/macro';
import { ArrowLeft, Download, Eye, Link2, Maximize, Pencil, Save } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { asRequestFailure } from '../../../contract/envelope';
import type { FsItem } from '../../../contract/fs';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FilePreview } from '../../components/file-preview/FilePreview';
import { previewKind } from '../../components/file-preview/preview-kind';
import { LinkButton } from '../../components/LinkButton';
import { MarkdownEditor } from '../../components/markdown-editor/MarkdownEditor';
import { MarkdownView } from '../../components/MarkdownView';
import { PageSkeleton } from '../../components/PageSkeleton';
import { loadTextPreview } from '../../lib/api/file-reads';
import { fileLink, saveTextFile } from '../../lib/api/fs';
import { formatBytes } from '../../lib/format';
import { toasts } from '../../lib/toast';
import { useResource } from '../../lib/use-resource';
import previewStyles from '../../components/file-preview/FilePreview.module.css';
import styles from './Explorer.module.css';

/** Text as the file previews show it, in the explorer's taller frame. */
const textBoxClass = `${previewStyles.textBox} ${styles.textBox}`;

/** Links for the preview live an hour: long enough to watch a film, short enough not to matter if leaked. */
const PREVIEW_LINK_SECONDS = 3600;

interface PreviewPanelProps {
  item: FsItem;
  onClose: () => void;
  onSaved: () => void;
  onCopyLink: () => void;
}

/** A file of the folder, shown in the page (fullscreen on demand); text and Markdown can be edited and saved. */
export function PreviewPanel({ item, onClose, onSaved, onCopyLink }: PreviewPanelProps) {
  const { t } = useLingui();
  const panel = useRef<HTMLElement>(null);
  const load = useCallback(
    () =>
      Promise.all([
        fileLink(item.path, { expiresIn: PREVIEW_LINK_SECONDS }),
        fileLink(item.path, { expiresIn: PREVIEW_LINK_SECONDS, forceDownload: true }),
      ]).then(([preview, download]) => ({ previewUrl: preview.url, downloadUrl: download.url })),
    [item.path],
  );
  const links = useResource(load);
  const kind = previewKind(item.mimetype ?? '', item.name);
  const [dirty, setDirty] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const close = () => (dirty ? setConfirmClose(true) : onClose());

  return (
    <section ref={panel} className={styles.preview} aria-label={t`Preview of ${item.name}`}>
      <div className={styles.previewHead}>
        <Button variant="ghost" onClick={close}>
          <ArrowLeft size={16} aria-hidden />
          {t`Back to folder`}
        </Button>
        <h2 className={styles.previewTitle}>{item.name}</h2>
        <span className={styles.previewMeta}>{formatBytes(item.size)}</span>
        <span className={styles.toolbarEnd}>
          {links.data && (
            <LinkButton href={links.data.downloadUrl} external>
              <Download size={16} aria-hidden />
              {t`Download`}
            </LinkButton>
          )}
          <Button onClick={onCopyLink}>
            <Link2 size={16} aria-hidden />
            {t`Copy link`}
          </Button>
          <Button variant="ghost" size="icon" aria-label={t`Fullscreen`} title={t`Fullscreen`} onClick={() => void panel.current?.requestFullscreen?.()}>
            <Maximize size={16} aria-hidden />
          </Button>
        </span>
      </div>
      {links.status === 'error' && <p className="form-error">{links.error.message}</p>}
      {!links.data ? (
        links.status !== 'error' && <PageSkeleton lines={6} />
      ) : kind === 'markdown' || kind === 'text' ? (
        <TextFile item={item} url={links.data.previewUrl} markdown={kind === 'markdown'} onDirty={setDirty} onSaved={onSaved} />
      ) : (
        <FilePreview file={{ filename: item.name, mimetype: item.mimetype ?? 'application/octet-stream', ...links.data }} />
      )}
      <ConfirmDialog
        open={confirmClose}
        onOpenChange={setConfirmClose}
        title={t`Discard unsaved changes?`}
        description={t`Your changes to ${item.name} have not been saved.`}
        confirmLabel={t`Discard`}
        onConfirm={onClose}
      />
    </section>
  );
}

type EditorLanguage = 'markdown' | 'plain';

/** Text in an editor with a preview mode; saved through `fs/update`. Files over the preview limit are read-only. */
function TextFile({
  item,
  url,
  markdown,
  onDirty,
  onSaved,
}: {
  item: FsItem;
  url: string;
  markdown: boolean;
  onDirty: (dirty: boolean) => void;
  onSaved: () => void;
}) {
  const { t } = useLingui();
  const load = useCallback(() => loadTextPreview(url), [url]);
  const text = useResource(load);
  const [mode, setMode] = useState<'preview' | 'edit'>('preview');
  const [language, setLanguage] = useState<EditorLanguage>(markdown ? 'markdown' : 'plain');
  const [content, setContent] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [saving, setSaving] = useState(false);
  const original = saved ?? text.data?.text;
  const dirty = content !== undefined && content !== original;

  useEffect(() => {
    onDirty(dirty);
    if (!dirty) return;
    // Leaving the page with unsaved text asks first.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty, onDirty]);

  if (text.status === 'error') return <p className="form-error">{t`The preview could not be loaded.`}</p>;
  if (!text.data) return <PageSkeleton lines={6} />;
  const current = content ?? text.data.text;

  const save = async () => {
    setSaving(true);
    try {
      await saveTextFile(item.path, current);
      setSaved(current);
      toasts.success(t`Saved ${item.name}`);
      onSaved();
    } catch (error) {
      toasts.error(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className={styles.textFile}>
      <div className={styles.toolbar} role="toolbar" aria-label={t`Editor`}>
        {/* Edit comes first, and Save only once there is an editor: a file opens ready to read, one step from editing. */}
        <Button aria-pressed={mode === 'edit'} disabled={text.data.truncated} onClick={() => setMode('edit')}>
          <Pencil size={16} aria-hidden />
          {t`Edit`}
        </Button>
        <Button aria-pressed={mode === 'preview'} onClick={() => setMode('preview')}>
          <Eye size={16} aria-hidden />
          {t`Preview`}
        </Button>
        <label className={styles.languagePick}>
          {t`Language`}
          <select value={language} onChange={(event) => setLanguage(event.target.value as EditorLanguage)}>
            <option value="markdown">Markdown</option>
            <option value="plain">{t`Plain text`}</option>
          </select>
        </label>
        {(mode === 'edit' || dirty) && (
          <span className={styles.toolbarEnd}>
            {dirty && <span className={styles.unsaved}>{t`Unsaved changes`}</span>}
            <Button variant="primary" disabled={!dirty || saving} onClick={() => void save()}>
              <Save size={16} aria-hidden />
              {t`Save`}
            </Button>
          </span>
        )}
      </div>
      {text.data.truncated && <p className={styles.hint}>{t`Only the first megabyte is shown, so this file cannot be edited here.`}</p>}
      {mode === 'edit' ? (
        <MarkdownEditor
          initial={current}
          plainText={language === 'plain'}
          label={t`Content of ${item.name}`}
          placeholder=""
          onChange={setContent}
          className={styles.editor}
        />
      ) : language === 'markdown' ? (
        <MarkdownView markdown={current} className={textBoxClass} label={t`Preview`} />
      ) : (
        <pre className={textBoxClass} tabIndex={0} aria-label={t`Preview`}>
          {current}
        </pre>
      )}
    </div>
  );
}
