// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { neutraliseLinks } from './safe-links';

describe('neutraliseLinks', () => {
  it('drops script and data targets, opens web links apart, keeps anchors', () => {
    const root = document.createElement('div');
    root.innerHTML =
      '<a id="js" href=" JavaScript:alert(1)">x</a><a id="data" href="data:text/html,hi">x</a><a id="web" href="https://example.com">x</a>' +
      '<a id="mail" href="mailto:a@b.c">x</a><a id="anchor" href="#part">x</a>';
    neutraliseLinks(root);
    const link = (id: string) => root.querySelector(`#${id}`)!;
    expect(link('js').hasAttribute('href')).toBe(false);
    expect(link('data').hasAttribute('href')).toBe(false);
    expect(link('web').getAttribute('rel')).toBe('noopener noreferrer');
    expect(link('web').getAttribute('target')).toBe('_blank');
    expect(link('mail').getAttribute('href')).toBe('mailto:a@b.c');
    expect(link('anchor').getAttribute('href')).toBe('#part');
    expect(link('anchor').hasAttribute('target')).toBe(false);
  });
});
