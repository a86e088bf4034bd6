import { Marked } from 'marked';
import { MARKDOWN_OPTIONS } from '../../../contract/markdown';

const marked = new Marked(MARKDOWN_OPTIONS);

/**
 * Markdown to HTML that is NOT safe yet: it holds whatever HTML the text did. Only render.ts calls it (through
 * parse.ts), and sanitises what it gives.
 */
export function markdownToUnsafeHtml(markdown: string): string {
  return marked.parse(markdown) as string;
}
