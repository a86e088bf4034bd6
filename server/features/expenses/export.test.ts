/**
 * `GET /api/admin/expenses/export.csv`: RFC 4180 (CRLF lines, quoted fields with doubled quotes), amounts in major
 * units by each currency's decimals, filters by status and by the date spent, admin only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expenseClaimDetailSchema, formatMinorUnits, parseMajorUnits, type CreateExpenseRequest } from '../../../contract/expenses';
import { expectStoredFold } from '../../../tests/fixtures/expense-status';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { csvField } from '../../csv';

/** A minimal RFC 4180 reader, to check that what was written reads back as it was. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('currency helpers', () => {
  it.each([
    [1250, 'EUR', '12.50'],
    [5, 'USD', '0.05'],
    [1250, 'JPY', '1250'],
    [12345, 'BHD', '12.345'],
    [1_000_000_000_000, 'EUR', '10000000000.00'],
  ])('%d %s minor units are %s', (minor, currency, major) => {
    expect(formatMinorUnits(minor, currency)).toBe(major);
    expect(parseMajorUnits(major, currency)).toBe(minor);
  });

  it('refuses major-unit text with more decimals than the currency has', () => {
    expect(parseMajorUnits('12.505', 'EUR')).toBeUndefined();
    expect(parseMajorUnits('12.5', 'JPY')).toBeUndefined();
    expect(parseMajorUnits('12.5', 'EUR')).toBe(1250);
    expect(parseMajorUnits('-3', 'EUR')).toBeUndefined();
  });
});

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['@cmd, "x"', '"\'@cmd, ""x"""'],
  ])('%j → %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });
});

describe('GET /api/admin/expenses/export.csv', () => {
  const t = useTestApp();
  let key: string;
  const CLAIM: CreateExpenseRequest = { title: 'Plain', amount_minor: 1250, currency: 'EUR', spent_on: '2030-01-05', category: 'meals' };
  const ids: Record<string, string> = {};

  const file = async (name: string, body: Partial<CreateExpenseRequest>) => {
    const claim = await expectOk(await t.request('/api/expenses', { apiKey: key, json: { ...CLAIM, ...body } }), expenseClaimDetailSchema, 201);
    ids[name] = claim.id;
    return claim;
  };
  const exported = async (query = '') => {
    const res = await t.request(`/api/admin/expenses/export.csv${query}`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="expenses.csv"/);
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    return parseCsv(text);
  };

  beforeAll(async () => {
    key = (await t.createKey(t.token, { name: 'Lee, "the traveller"', expense_permission: true })).key;
    await file('tricky', { title: 'Dinner, "client"\nsecond line', description: 'a\r\nb, c', spent_on: '2030-01-02' });
    await file('yen', { title: 'Ramen', amount_minor: 980, currency: 'JPY', spent_on: '2030-01-08' });
    await file('dinar', { title: 'Taxi', amount_minor: 12_345, currency: 'BHD', spent_on: '2030-01-10' });
    await expectStoredFold(t.db, await expectOk(await t.request(`/api/expenses/${ids.yen}/submit`, { apiKey: key, method: 'POST' }), expenseClaimDetailSchema));
  });

  it('writes a header and one line per claim, quoting commas, quotes and line breaks, amounts in major units', async () => {
    const [header, ...rows] = await exported();
    expect(header).toEqual(['id', 'spent_on', 'title', 'category', 'amount', 'currency', 'status', 'owner', 'description', 'receipts', 'created_at', 'updated_at']);
    expect(rows.map((row) => row.slice(0, 9))).toEqual([
      [ids.tricky, '2030-01-02', 'Dinner, "client"\nsecond line', 'meals', '12.50', 'EUR', 'draft', 'Lee, "the traveller"', 'a\r\nb, c'],
      [ids.yen, '2030-01-08', 'Ramen', 'meals', '980', 'JPY', 'submitted', 'Lee, "the traveller"', ''],
      [ids.dinar, '2030-01-10', 'Taxi', 'meals', '12.345', 'BHD', 'draft', 'Lee, "the traveller"', ''],
    ]);
    expect(rows.every((row) => row.length === header?.length && row[9] === '0')).toBe(true);
  });

  it('filters by status and by the date spent, both bounds inclusive', async () => {
    const idsOf = (rows: string[][]) => rows.slice(1).map((row) => row[0]);
    expect(idsOf(await exported('?status=submitted'))).toEqual([ids.yen]);
    expect(idsOf(await exported('?from=2030-01-08&to=2030-01-10'))).toEqual([ids.yen, ids.dinar]);
    expect(idsOf(await exported('?to=2030-01-02'))).toEqual([ids.tricky]);
    expect(idsOf(await exported('?status=approved'))).toEqual([]);
  });

  it('answers 400 for a bad filter, and only to the admin', async () => {
    for (const query of ['?status=lost', '?from=2030-13-01', '?to=yesterday']) {
      await expectError(await t.request(`/api/admin/expenses/export.csv${query}`, { token: t.token }), 400);
    }
    await expectError(await t.request('/api/admin/expenses/export.csv', { apiKey: key }), 403);
    await expectError(await t.request('/api/admin/expenses/export.csv'), 401);
  });
});
