import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { commonmarkLanguage, markdownKeymap, pasteURLAsLink } from '@codemirror/lang-markdown';
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderExtension } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';

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

const editorTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--surface)', color: 'var(--text)', height: '100%' },
  '.cm-content': { fontFamily: 'var(--font-mono)', padding: '12px 0', caretColor: 'var(--text)' },
  '.cm-scroller': { lineHeight: '1.6' },
  '&.cm-focused': { outline: 'none' },
  '.cm-placeholder': { color: 'var(--text-muted)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--accent-soft)' },
});

/**
 * Markdown's marks in the theme's colours (CodeMirror's default style is for light themes only and underlines
 * headings as if they were links): headings bold and larger, links underlined, the marks (`#`, `>`, `-`, `` ` ``) muted.
 */
const markdownHighlightStyle = HighlightStyle.define([
  // A tag takes the rule of its own or else of its nearest parent, never both: each heading rule is whole.
  { tag: tags.heading1, fontWeight: '700', fontSize: '1.3em' },
  { tag: [tags.heading2, tags.heading3], fontWeight: '700', fontSize: '1.15em' },
  { tag: tags.heading, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: tags.link, color: 'var(--accent)', textDecoration: 'underline' },
  { tag: tags.url, color: 'var(--accent)' },
  { tag: tags.quote, fontStyle: 'italic' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: 'var(--text-muted)' },
]);

/**
 * What `markdown()` gives (CommonMark, list continuation on Enter, a pasted URL over a selection as a link) but
 * its HTML sub-language: that brings the HTML, CSS and JavaScript parsers, two fifths of the editor's code.
 */
const markdownSupport = [
  new LanguageSupport(commonmarkLanguage),
  Prec.high(keymap.of(markdownKeymap)),
  pasteURLAsLink,
  syntaxHighlighting(markdownHighlightStyle),
];

/** CodeMirror 6 with Markdown highlighting, or none in plain-text mode (pastes, files in the mount explorer). */
export const MarkdownEditor = forwardRef<EditorHandle, MarkdownEditorProps>(function MarkdownEditor(
  { initial, plainText, label, placeholder, onChange, className },
  handle,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(undefined);
  const language = useRef(new Compartment());
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initial,
        extensions: [
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.lineWrapping,
          language.current.of(plainText ? [] : markdownSupport),
          placeholderExtension(placeholder),
          editorTheme,
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is created once; later props are applied through compartments and the handle.
  }, []);

  useEffect(() => {
    view.current?.dispatch({
      effects: language.current.reconfigure(plainText ? [] : markdownSupport),
    });
  }, [plainText]);

  useImperativeHandle(handle, () => ({
    setContent(text) {
      const editor = view.current;
      if (!editor) return;
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
    },
    focus() {
      view.current?.focus();
    },
  }));

  return <div ref={host} className={className} data-testid="markdown-editor" />;
});
