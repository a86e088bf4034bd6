import { useLingui } from '@lingui/react/macro';
import { ClipboardCopy, Code2, Eraser, FileText, FileUp, Image, Type } from 'lucide-react';
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
        <Button size="small" aria-pressed={!props.plainText} onClick={props.onTogglePlainText}>
          {props.plainText ? <Type size={15} aria-hidden /> : <Code2 size={15} aria-hidden />}
          {props.plainText ? t`Plain text` : t`Markdown`}
        </Button>
        {!props.plainText && (
          <Button size="small" aria-pressed={props.showPreview} onClick={props.onTogglePreview}>
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
