import { describe, expect, it } from 'vitest';
import { markdownHtml, SERVER_RENDERED_MAX_CHARS } from './markdown';

describe('markdownHtml', () => {
  it('renders GitHub-flavoured Markdown: tables, task lists, fenced code', () => {
    const html = markdownHtml('# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n```js\nconst x = 1;\n```\n', 'gfm');
    expect(html).toContain('<h1 id="user-content-title">Title</h1>');
    expect(html).toContain('<td>1</td>');
    expect(html).toMatch(/<input [^>]*checked[^>]*type="checkbox"|<input [^>]*type="checkbox"[^>]*checked/);
    expect(html).toContain('<code class="language-js">');
  });

  it("gives headings GitHub's anchors, prefixed as every id of a paste is, unique in their text", () => {
    const html = markdownHtml(
      "# Set *up* `now`\n\n## What's new?\n\n## Notes\n\n## Notes\n\n## Notes-1\n\n# 你好 World <b>x</b>\n\n# 🎉 Party\n\n# !!!\n\n## <img name=x>",
      'anchors',
    );
    expect(html).toContain('<h1 id="user-content-set-up-now">Set <em>up</em> <code>now</code></h1>');
    expect(html).toContain('<h2 id="user-content-whats-new">');
    expect(html?.match(/<h2 id="user-content-notes[-\w]*">/g)).toEqual([
      '<h2 id="user-content-notes">',
      '<h2 id="user-content-notes-1">',
      '<h2 id="user-content-notes-1-1">',
    ]);
    expect(html).toContain('<h1 id="user-content-你好-world-x">');
    expect(html).toContain('<h1 id="user-content--party">');
    // Nothing to name it by: no anchor, rather than an empty one.
    expect(html).toContain('<h1>!!!</h1>');
    expect(html).toContain('<h2><img name=x></h2>');
    // Each text counts its own headings: the same heading in the next text is not `-1`.
    expect(markdownHtml('## Notes', 'anchors-again')).toBe('<h2 id="user-content-notes">Notes</h2>\n');
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
