import { useLingui } from '@lingui/react/macro';
import { ClipboardCopy, Code2, Eraser, Eye, EyeOff, FileText, FileUp, Image, Type } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../components/Button';
import styles from './Home.module.css';

/** Files imported as Markdown, plus plain text. */
export const IMPORT_ACCEPT = '.md,.markdown,.mdown,.mkd,.mdwn,.mdtxt,.mdtext,.rmd,.txt,text/plain,text/markdown';

interface EditorToolbarProps {
  plainText: boolean;
  showPreview: boolean;
  busy: boolean;
  onTogglePlainText: () => void;
  onTogglePreview: () => void;
  onCopy: (format: 'markdown' | 'html' | 'text') => void;
  onExport: (format: 'docx' | 'png') => void;
  onImport: (file: File) => void;
  onClear: () => void;
}

export function EditorToolbar(props: EditorToolbarProps) {
  const { t } = useLingui();
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t`Editor tools`}>
      <div className={styles.toolGroup}>
        {/* Each mode its own button, the one on shown pressed: one button naming the mode it is in reads as the one it switches to. */}
        <div className={styles.segmented} role="group" aria-label={t`Editor mode`}>
          <Button size="small" className={styles.toggle} aria-pressed={!props.plainText} onClick={() => props.plainText && props.onTogglePlainText()}>
            <Code2 size={15} aria-hidden />
            {t`Markdown`}
          </Button>
          <Button size="small" className={styles.toggle} aria-pressed={props.plainText} onClick={() => !props.plainText && props.onTogglePlainText()}>
            <Type size={15} aria-hidden />
            {t`Plain text`}
          </Button>
        </div>
        {!props.plainText && (
          <Button size="small" className={styles.toggle} aria-pressed={props.showPreview} onClick={props.onTogglePreview}>
            {props.showPreview ? <Eye size={15} aria-hidden /> : <EyeOff size={15} aria-hidden />}
            {t`Preview`}
          </Button>
        )}
      </div>
      <div className={styles.toolGroup}>
        <Button size="small" onClick={() => props.onCopy('markdown')}>
          <ClipboardCopy size={15} aria-hidden />
          {t`Copy Markdown`}
        </Button>
        <Button size="small" onClick={() => props.onCopy('html')}>
          {t`Copy HTML`}
        </Button>
        <Button size="small" onClick={() => props.onCopy('text')}>
          {t`Copy text`}
        </Button>
      </div>
      <div className={styles.toolGroup}>
        <Button size="small" disabled={props.busy} onClick={() => props.onExport('docx')}>
          <FileText size={15} aria-hidden />
          {t`Export Word`}
        </Button>
        <Button size="small" disabled={props.busy} onClick={() => props.onExport('png')}>
          <Image size={15} aria-hidden />
          {t`Export PNG`}
        </Button>
        <Button size="small" onClick={() => fileInput.current?.click()}>
          <FileUp size={15} aria-hidden />
          {t`Import file`}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept={IMPORT_ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-label={t`Import file`}
          data-testid="import-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) props.onImport(file);
            event.target.value = '';
          }}
        />
        <Button size="small" variant="ghost" onClick={props.onClear}>
          <Eraser size={15} aria-hidden />
          {t`Clear`}
        </Button>
      </div>
    </div>
  );
}
