import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './plain-text';

describe('markdownToPlainText', () => {
  it('reads a table as its cells, without the delimiter row', () => {
    expect(markdownToPlainText('| Item | Qty |\n|---|:---:|\n| Apples | 3 |')).toBe('Item Qty Apples 3');
  });

  it('drops headings, quotes, bullets, numbers and task boxes', () => {
    expect(markdownToPlainText('# Shopping\n> note this\n- milk\n* [x] bread\n2. eggs\n+ tea')).toBe('Shopping note this milk bread eggs tea');
  });

  it('keeps the words of emphasis, code, links and images', () => {
    expect(markdownToPlainText('**bold**, *it*, ~~gone~~, __strong__ and `code`')).toBe('bold, it, gone, strong and code');
    expect(markdownToPlainText('See [the docs](https://example.com/a_b) and ![a cat](cat.png) or <https://x.org>')).toBe(
      'See the docs and a cat or https://x.org',
    );
  });

  it('leaves plain text, snake_case and escaped characters as they read', () => {
    expect(markdownToPlainText('call my_function_name with 2 * 3')).toBe('call my_function_name with 2 * 3');
    expect(markdownToPlainText('a \\*literal\\* star')).toBe('a *literal* star');
    expect(markdownToPlainText('价格 5 元')).toBe('价格 5 元');
  });

  it('drops code fences, rules and inline HTML but keeps the code', () => {
    expect(markdownToPlainText('```ts\nconst a = 1;\n```\n---\n<b>hi</b>')).toBe('const a = 1; hi');
  });

  it('reads a preview cut off in the middle of a table', () => {
    expect(markdownToPlainText('| Item | Qty |\n|---|---|\n| Pen')).toBe('Item Qty | Pen');
  });
});
