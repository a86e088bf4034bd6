// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { isTypingTarget } from './slash-focus';

const make = (html: string) => {
  document.body.innerHTML = html;
  return document.getElementById('target');
};

afterEach(() => {
  document.body.innerHTML = '';
});

describe('isTypingTarget', () => {
  it('is true in text fields, text areas, selects and rich editors', () => {
    for (const html of [
      '<input id="target">',
      '<input id="target" type="search">',
      '<input id="target" type="number">',
      '<textarea id="target"></textarea>',
      '<select id="target"></select>',
      '<div contenteditable="true"><p id="target">x</p></div>',
    ]) {
      expect(isTypingTarget(make(html)), html).toBe(true);
    }
  });

  it('is false on the page, buttons, links, check boxes and a listbox', () => {
    for (const html of [
      '<button id="target">b</button>',
      '<a id="target" href="/">a</a>',
      '<input id="target" type="checkbox">',
      '<div id="target" role="listbox" tabindex="0"></div>',
    ]) {
      expect(isTypingTarget(make(html)), html).toBe(false);
    }
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
