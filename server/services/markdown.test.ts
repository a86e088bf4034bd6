import { describe, expect, it } from 'vitest';
import { markdownHtml, SERVER_RENDERED_MAX_CHARS } from './markdown';

describe('markdownHtml', () => {
  it('renders GitHub-flavoured Markdown: tables, task lists, fenced code', () => {
    const html = markdownHtml('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n```js\nconst x = 1;\n```\n', 'gfm');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<td>1</td>');
    expect(html).toMatch(/<input [^>]*checked[^>]*type="checkbox"|<input [^>]*type="checkbox"[^>]*checked/);
    expect(html).toContain('<code class="language-js">');
  });

  it('renders a changed text again under the same key, and keeps raw HTML for the browser to sanitise', () => {
    expect(markdownHtml('one', 'paste-1')).toBe('<p>one</p>\n');
    expect(markdownHtml('two', 'paste-1')).toBe('<p>two</p>\n');
    expect(markdownHtml('<b onclick="x()">b</b>', 'paste-1')).toContain('onclick');
  });

  it('leaves a text over SERVER_RENDERED_MAX_CHARS to the reader: no rendering holds up the server for long', () => {
    expect(markdownHtml('a'.repeat(SERVER_RENDERED_MAX_CHARS), 'paste-2')).toBe(`<p>${'a'.repeat(SERVER_RENDERED_MAX_CHARS)}</p>\n`);
    expect(markdownHtml('a'.repeat(SERVER_RENDERED_MAX_CHARS + 1), 'paste-2')).toBeUndefined();
  });
});
