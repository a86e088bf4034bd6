import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { nextTask, whenSettled } from '../../lib/idle';
import type { CodeMirrorEditor } from './code-mirror';
import styles from './MarkdownEditor.module.css';

export interface EditorHandle {
  /** Replaces the whole text (restore, import, clear) as one undoable change. */
  setContent(text: string): void;
  focus(): void;
}

interface MarkdownEditorProps {
  initial: string;
  plainText: boolean;
  label: string;
  placeholder: string;
  onChange: (text: string) => void;
  /** The host's layout for the editor box (size, border). */
  className?: string;
}

/** A textarea's selection as CodeMirror holds one: the anchor stays, the head moves. */
function selectionOf(area: HTMLTextAreaElement) {
  const backward = area.selectionDirection === 'backward';
  return { anchor: backward ? area.selectionEnd : area.selectionStart, head: backward ? area.selectionStart : area.selectionEnd };
}

/**
 * CodeMirror 6 with Markdown highlighting, or none in plain-text mode (pastes, files in the mount explorer).
 * CodeMirror is two fifths of the home page's script: the page renders with a plain textarea, and CodeMirror takes
 * its place, with its text, selection and focus, once the page has settled or at the first focus or press on it.
 * Where its code cannot load (offline before it ever did), the textarea stays.
 */
export const MarkdownEditor = forwardRef<EditorHandle, MarkdownEditorProps>(function MarkdownEditor(props, handle) {
  const host = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const editor = useRef<CodeMirrorEditor>(undefined);
  const [upgraded, setUpgraded] = useState(false);
  const latest = useRef(props);
  latest.current = props;
  // The text last passed to onChange: CodeMirror taking over the textarea's text is no change.
  const reported = useRef(props.initial);
  const report = (text: string) => {
    if (text === reported.current) return;
    reported.current = text;
    latest.current.onChange(text);
  };
  const upgrade = useRef<() => void>(() => undefined);

  useEffect(() => {
    let live = true;
    let loading: Promise<void> | undefined;
    upgrade.current = () => {
      loading ??= import('./code-mirror').then(async ({ createCodeMirror }) => {
        // CodeMirror's code is evaluated in one task, its first layout in another: one long task less.
        await nextTask();
        const textarea = area.current;
        const parent = host.current;
        if (!live || !textarea || !parent) return;
        // One task from reading the textarea to focusing CodeMirror: no keystroke falls between them.
        const focused = document.activeElement === textarea;
        const text = textarea.value;
        const selection = selectionOf(textarea);
        flushSync(() => setUpgraded(true));
        const { initial, plainText, label, placeholder } = latest.current;
        editor.current = createCodeMirror({ parent, initial, text, selection, plainText, label, placeholder, onChange: report });
        if (focused) editor.current.focus();
      }, () => undefined);
    };
    whenSettled(() => upgrade.current());
    return () => {
      live = false;
      editor.current?.destroy();
      editor.current = undefined;
    };
    // Created once; later props reach CodeMirror through the handle and the plain-text effect.
  }, []);

  useEffect(() => {
    editor.current?.setPlainText(props.plainText);
  }, [props.plainText]);

  useImperativeHandle(handle, () => ({
    setContent(text) {
      if (editor.current) return editor.current.setContent(text);
      if (area.current) area.current.value = text;
      report(text);
    },
    focus() {
      if (editor.current) editor.current.focus();
      else area.current?.focus();
    },
  }));

  return (
    <div ref={host} className={props.className} data-testid="markdown-editor">
      {!upgraded && (
        <textarea
          ref={area}
          className={styles.textarea}
          defaultValue={props.initial}
          aria-label={props.label}
          placeholder={props.placeholder}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          onInput={(event) => report(event.currentTarget.value)}
          onFocus={() => upgrade.current()}
          onPointerDown={() => upgrade.current()}
        />
      )}
    </div>
  );
});
