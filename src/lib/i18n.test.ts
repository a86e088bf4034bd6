import { describe, expect, it } from 'vitest';
import { detectLocale } from './i18n';

describe('detectLocale', () => {
  it('prefers a stored, valid choice', () => {
    expect(detectLocale('en-US', ['zh-CN'])).toBe('en-US');
    expect(detectLocale('zh-CN', ['en-GB'])).toBe('zh-CN');
  });
  it('follows the browser: zh* gives Chinese, anything else English', () => {
    expect(detectLocale(undefined, ['zh-TW', 'en'])).toBe('zh-CN');
    expect(detectLocale(undefined, ['ZH'])).toBe('zh-CN');
    expect(detectLocale(undefined, ['fr-FR', 'zh-CN'])).toBe('en-US');
    expect(detectLocale('klingon', ['de'])).toBe('en-US');
  });
  it('falls back to zh-CN without any browser language', () => {
    expect(detectLocale(undefined, [])).toBe('zh-CN');
  });
});
