import { describe, expect, it } from 'vitest';
import { csvField } from './csv';

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
