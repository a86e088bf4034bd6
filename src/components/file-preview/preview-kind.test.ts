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
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx', 'docx'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'download', 'docx'],
    ['application/octet-stream', 'Budget.XLSX', 'xlsx'],
    ['application/octet-stream', 'talk.pptx', 'pptx'],
    ['application/octet-stream', 'letter.odt', 'odt'],
    ['application/octet-stream', 'sums.ods', 'ods'],
    ['application/octet-stream', 'book.epub', 'epub'],
    ['application/zip', 'a.zip', 'zip'],
    ['application/octet-stream', 'a.7z', 'archive'],
    ['application/x-tar', 'a.tar', 'archive'],
    ['application/gzip', 'src.tar.gz', 'archive'],
    ['application/octet-stream', 'src.tgz', 'archive'],
    ['application/gzip', 'notes.txt.gz', 'none'],
    ['application/msword', 'old.doc', 'office'],
    ['application/octet-stream', 'slides.odp', 'office'],
    ['application/octet-stream', 'blob.bin', 'none'],
  ])('%s %s → %s', (mime, name, kind) => expect(previewKind(mime, name)).toBe(kind));

  it('knows code languages by extension', () => {
    expect(codeLanguage('x.ts')).toBe('typescript');
    expect(codeLanguage('Makefile')).toBeUndefined();
  });
});
