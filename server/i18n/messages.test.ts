import { describe, expect, it } from 'vitest';
import { languageFrom, messages, translate, type MessageKey } from './messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  const keys = Object.keys(messages) as MessageKey[];

  it.each(keys)('%s has an English and a Chinese text with the same placeholders', (key) => {
    const { en, zh } = messages[key];
    expect(en.trim()).not.toBe('');
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(placeholders(zh)).toEqual(placeholders(en));
  });

  it('translates a message given as a placeholder (a failure’s reason) into the same language', () => {
    const params = { reason: { messageKey: 'reason_no_space' as const } };
    expect(translate('storage_unavailable', 'en', params)).toBe('The storage could not be reached: the storage is full');
    expect(translate('storage_unavailable', 'zh', params)).toBe('无法访问存储：存储空间已满');
  });

  it('fills placeholders and leaves unknown ones alone', () => {
    expect(translate('too_many_attempts', 'en', { minutes: 7 })).toBe('Too many failed logins, try again in 7 minutes');
    expect(translate('too_many_attempts', 'zh', { minutes: 7 })).toBe('登录失败次数过多，请 7 分钟后再试');
    expect(translate('invalid_input', 'en', { field: 'name' })).toBe('Invalid value for name: {issue}');
  });
});

describe('languageFrom', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['en-US', 'en'],
    ['de-DE,zh-CN;q=0.9', 'en'],
    ['zh', 'zh'],
    ['zh-CN', 'zh'],
    ['ZH-cn,en;q=0.5', 'zh'],
    ['zh-Hans-CN', 'zh'],
    ['  zh-TW ', 'zh'],
  ] as const)('%j → %s', (header, lang) => {
    expect(languageFrom(header)).toBe(lang);
  });
});
