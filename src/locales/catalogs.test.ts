import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** lingui.config.ts: each share page's visitor catalog (its first load), and the whole one. */
const VISITOR_CATALOGS = ['visitor-paste', 'visitor-file'];
const CATALOGS = [...VISITOR_CATALOGS, 'messages'];

/** msgid → msgstr of a .po catalog (single-line entries, as lingui writes them). */
function entries(locale: string, catalog: string): Map<string, string> {
  const text = readFileSync(new URL(`./${locale}/${catalog}.po`, import.meta.url), 'utf8');
  const map = new Map<string, string>();
  for (const match of text.matchAll(/^msgid (".*")\nmsgstr (".*")$/gm)) {
    const id = JSON.parse(match[1] ?? '""') as string;
    if (id) map.set(id, JSON.parse(match[2] ?? '""') as string);
  }
  return map;
}

describe.each(CATALOGS)('translation catalog %s', (catalog) => {
  const english = entries('en-US', catalog);
  const chinese = entries('zh-CN', catalog);

  it('holds the same messages in both languages', () => {
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    expect(english.size).toBeGreaterThan(50);
  });

  it('translates every message into Chinese, keeping its placeholders', () => {
    const untranslated = [...chinese].filter(([, text]) => !text).map(([id]) => id);
    expect(untranslated).toEqual([]);
    // Each name once: Chinese has one plural form where English has two, each with the placeholder.
    const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
    for (const [id, text] of chinese) expect(placeholders(text), id).toEqual(placeholders(id));
  });
});

describe('translation catalogs', () => {
  it('translate a message that two of them hold the same way', () => {
    const whole = entries('zh-CN', 'messages');
    const differing = VISITOR_CATALOGS.flatMap((catalog) =>
      [...entries('zh-CN', catalog)].filter(([id, text]) => whole.has(id) && whole.get(id) !== text).map(([id]) => `${catalog}: ${id}`),
    );
    expect(differing).toEqual([]);
  });
});
