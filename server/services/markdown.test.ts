import { describe, expect, it } from 'vitest';
import { markdownHtml } from './markdown';

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
});
