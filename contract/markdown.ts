import { Marked, TextRenderer } from 'marked';
import { USER_CONTENT_PREFIX } from './user-content';

/** A heading's words without their markup, for its anchor: inline HTML gives none. */
class HeadingText extends TextRenderer {
  override html(): string {
    return '';
  }
}
const headingText = new HeadingText();

/**
 * The anchor GitHub gives a heading of this text (github-slugger): lower case, punctuation and symbols dropped,
 * each space a hyphen. `## What's new?` is `whats-new`, `# 你好 World` is `你好-world`.
 */
function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors given in the text being rendered, and how often each was asked for. */
const occurrences = new Map<string, number>();

/** A heading's anchor, unique in its text as on GitHub: the second `## Notes` is `notes-1`; '' for none. */
function uniqueSlug(text: string): string {
  const original = headingSlug(text);
  if (!original) return '';
  let slug = original;
  while (occurrences.has(slug)) {
    const count = (occurrences.get(original) ?? 0) + 1;
    occurrences.set(original, count);
    slug = `${original}-${count}`;
  }
  occurrences.set(slug, 0);
  return slug;
}

/**
 * The Markdown dialect of the app: GitHub-flavoured (tables, task lists, fenced code, autolinks), a single line
 * break is no break, headings with GitHub's anchors (`## Set up` is `id="user-content-set-up"`, prefixed as every
 * id of a paste is: contract/user-content.ts). One parser for both sides: the server renders a paste's HTML for its
 * readers with it (server/features/pastes/markdown.ts), the browser its previews in a worker (src/lib/markdown/parse.ts),
 * so both give the same HTML for the same text.
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    heading({ tokens, depth }) {
      headingText.parser = this.parser;
      const slug = uniqueSlug(this.parser.parseInline(tokens, headingText));
      const id = slug ? ` id="${USER_CONTENT_PREFIX}${slug}"` : '';
      return `<h${depth}${id}>${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** Markdown to HTML that is NOT safe to show: it holds whatever HTML the text did. Sanitise it first. */
export function markdownToUnsafeHtml(markdown: string): string {
  occurrences.clear();
  return marked.parse(markdown) as string;
}
