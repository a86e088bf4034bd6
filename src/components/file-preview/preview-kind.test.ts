import { describe, expect, it } from 'vitest';
import { codeLanguage, previewKind } from './preview-kind';

describe('previewKind', () => {
  it.each([
    ['image/png', 'a.png', 'image'],
    ['video/mp4', 'a.mp4', 'video'],
    ['audio/mpeg', 'a.mp3', 'audio'],
    ['application/pdf', 'a.pdf', 'pdf'],
    ['application/octet-stream', 'notes.md', 'markdown'],
    ['text/html', 'page.html', 'html'],
    ['image/svg+xml', 'logo.svg', 'image'],
    ['text/plain', 'a.txt', 'text'],
    ['application/octet-stream', 'main.rs', 'text'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx', 'office'],
    ['application/zip', 'a.zip', 'none'],
  ])('%s %s → %s', (mime, name, kind) => expect(previewKind(mime, name)).toBe(kind));

  it('knows code languages by extension', () => {
    expect(codeLanguage('x.ts')).toBe('typescript');
    expect(codeLanguage('Makefile')).toBeUndefined();
  });
});
