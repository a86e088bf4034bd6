import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** msgid → msgstr of a .po catalog (single-line entries, as lingui writes them). */
function entries(locale: string): Map<string, string> {
  const text = readFileSync(new URL(`./${locale}/messages.po`, import.meta.url), 'utf8');
  const map = new Map<string, string>();
  for (const match of text.matchAll(/^msgid (".*")\nmsgstr (".*")$/gm)) {
    const id = JSON.parse(match[1] ?? '""') as string;
    if (id) map.set(id, JSON.parse(match[2] ?? '""') as string);
  }
  return map;
}

describe('translation catalogs', () => {
  const english = entries('en-US');
  const chinese = entries('zh-CN');

  it('hold the same messages', () => {
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    expect(english.size).toBeGreaterThan(100);
  });

  it('translate every message into Chinese, keeping its placeholders', () => {
    const untranslated = [...chinese].filter(([, text]) => !text).map(([id]) => id);
    expect(untranslated).toEqual([]);
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [id, text] of chinese) expect(placeholders(text), id).toEqual(placeholders(id));
  });
});
