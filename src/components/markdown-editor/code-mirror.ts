import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory } from '@codemirror/commands';
import { commonmarkLanguage, markdownKeymap, pasteURLAsLink } from '@codemirror/lang-markdown';
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorSelection, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderExtension } from '@codemirror/view';
import { tags } from '@lezer/highlight';

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

export interface CodeMirrorOptions {
  parent: HTMLElement;
  /** The text the editor starts from: undo goes back to it. */
  initial: string;
  /** The text to show, when it differs from `initial` (typed before CodeMirror had loaded): one undoable change. */
  text: string;
  selection: { anchor: number; head: number };
  plainText: boolean;
  label: string;
  placeholder: string;
  onChange: (text: string) => void;
}

export interface CodeMirrorEditor {
  setContent(text: string): void;
  setPlainText(plainText: boolean): void;
  focus(): void;
  destroy(): void;
}

/** CodeMirror 6 with Markdown highlighting, or none in plain-text mode, in `parent`. */
export function createCodeMirror(options: CodeMirrorOptions): CodeMirrorEditor {
  const language = new Compartment();
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.initial,
      extensions: [
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.lineWrapping,
        language.of(options.plainText ? [] : markdownSupport),
        placeholderExtension(options.placeholder),
        editorTheme,
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-multiline': 'true' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  const { anchor, head } = options.selection;
  const length = options.text.length;
  // What was typed before CodeMirror loaded is one undo step of its own, not merged with the typing that follows.
  view.dispatch({
    ...(options.text !== options.initial && {
      changes: { from: 0, to: view.state.doc.length, insert: options.text },
      annotations: isolateHistory.of('full'),
    }),
    selection: EditorSelection.single(Math.min(anchor, length), Math.min(head, length)),
  });
  return {
    setContent(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setPlainText(plainText) {
      view.dispatch({ effects: language.reconfigure(plainText ? [] : markdownSupport) });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
