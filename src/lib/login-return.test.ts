import { describe, expect, it } from 'vitest';
import { loginHref, returnPath } from './login-return';

describe('login return', () => {
  it('carries a path of this app, with its query, through the login page', () => {
    const href = loginHref('/upload?shared=a b&x=1');
    expect(href.startsWith('/admin?')).toBe(true);
    expect(returnPath(href.slice(href.indexOf('?')))).toBe('/upload?shared=a b&x=1');
  });

  it('never goes back to another site', () => {
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'javascript:alert(1)', '']) {
      expect(returnPath(`?next=${encodeURIComponent(next)}`)).toBeUndefined();
    }
    expect(returnPath('')).toBeUndefined();
  });
});
