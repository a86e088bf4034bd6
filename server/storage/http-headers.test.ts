import { describe, expect, it } from 'vitest';
import { cleanContentType, contentDisposition, needsSandbox, parseRange } from './http-headers';
import { cleanFilename, folderSegments, isShareAreaKey, safeSegment, shareObjectKey } from './keys';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['', { kind: 'whole' }],
    ['bytes=0-99', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=900-', { kind: 'partial', range: { start: 900, end: 999 } }],
    ['bytes=900-5000', { kind: 'partial', range: { start: 900, end: 999 } }],
    ['bytes=-100', { kind: 'partial', range: { start: 900, end: 999 } }],
    ['bytes=-5000', { kind: 'partial', range: { start: 0, end: 999 } }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=50-10', { kind: 'whole' }],
    ['bytes=0-1,5-9', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
    ['bytes=abc-', { kind: 'whole' }],
  ])('%j of 1000 bytes → %j', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it('has nothing to give of an empty object', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('contentDisposition (RFC 6266)', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    ['résumé (1).pdf', `attachment; filename="r_sum_ (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`],
    ['报告.docx', `attachment; filename="__.docx"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.docx`],
    ['a"b\\c%d.txt', `attachment; filename="a_b_c_d.txt"; filename*=UTF-8''a%22b%5Cc%25d.txt`],
    ["it's*.txt", `attachment; filename="it's*.txt"; filename*=UTF-8''it%27s%2A.txt`],
  ])('%j', (name, expected) => {
    expect(contentDisposition('attachment', name)).toBe(expected);
  });

  it('never lets a name break out of the header', () => {
    expect(contentDisposition('inline', 'x\r\nSet-Cookie: a=b')).toBe(`inline; filename="x__Set-Cookie: a=b"; filename*=UTF-8''x%0D%0ASet-Cookie%3A%20a%3Db`);
  });
});

describe('content types', () => {
  it.each([
    ['text/html', 'text/html'],
    ['Image/SVG+XML; charset=utf-8', 'image/svg+xml'],
    ['', 'application/octet-stream'],
    [undefined, 'application/octet-stream'],
    ['text/html\r\nX-Evil: 1', 'application/octet-stream'],
    ['nonsense', 'application/octet-stream'],
  ])('cleans %j to %j', (input, output) => {
    expect(cleanContentType(input)).toBe(output);
  });

  it('sandboxes everything but PDF', () => {
    for (const type of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'image/png', 'text/plain', 'application/octet-stream']) {
      expect(needsSandbox(type)).toBe(true);
    }
    expect(needsSandbox('application/pdf')).toBe(false);
  });
});

describe('storage keys', () => {
  it('keeps names readable but safe', () => {
    expect(safeSegment('Quarterly report.pdf')).toBe('Quarterly report.pdf');
    expect(safeSegment('..hidden')).toBe('hidden');
    expect(safeSegment('a:b*c?d"e<f>g|h\\i/j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(safeSegment('tab\there\u0000')).toBe('tab_here_');
    expect(safeSegment('é'.repeat(150))).toBe('é'.repeat(100));
    expect(Buffer.byteLength(safeSegment('😀'.repeat(100)))).toBeLessThanOrEqual(200);
  });

  it('normalises client folders and refuses climbing ones', () => {
    expect(folderSegments('/a//b/./c/')).toEqual(['a', 'b', 'c']);
    expect(folderSegments(undefined)).toEqual([]);
    expect(folderSegments('a\\b')).toEqual(['a', 'b']);
    expect(() => folderSegments('a/../b')).toThrow();
    expect(() => folderSegments('..\\x')).toThrow();
    expect(() => folderSegments(Array.from({ length: 17 }, () => 'x').join('/'))).toThrow();
  });

  it('builds share keys in the share area, under the config folder, with a random part', () => {
    const key = shareObjectKey('shares', 'q1', 'plan.txt');
    expect(key).toMatch(/^\.clipstash-shares\/shares\/q1\/[A-Za-z0-9]{10}-plan\.txt$/);
    expect(isShareAreaKey(key)).toBe(true);
    expect(shareObjectKey('', undefined, '...')).toMatch(/^\.clipstash-shares\/[A-Za-z0-9]{10}-file$/);
    // A client's folder cannot lead out of the area or name it a second time.
    expect(shareObjectKey('', '.clipstash-shares/x', 'a')).toMatch(/^\.clipstash-shares\/clipstash-shares\/x\//);
    expect(isShareAreaKey('.clipstash-sharesX/a')).toBe(false);
    expect(isShareAreaKey('docs/.clipstash-shares')).toBe(false);
    expect(shareObjectKey('', undefined, 'a')).not.toBe(shareObjectKey('', undefined, 'a'));
  });

  it('cleans file names for records', () => {
    expect(cleanFilename('C:\\Users\\me\\doc.txt')).toBe('doc.txt');
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename('  ')).toBe('file');
    expect(cleanFilename(undefined)).toBe('file');
    expect(cleanFilename('a\u0007b.txt')).toBe('ab.txt');
  });
});
