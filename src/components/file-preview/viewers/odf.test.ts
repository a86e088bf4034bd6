// @vitest-environment happy-dom
import { BlobWriter, TextReader, ZipWriter } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { SHEET_MAX_ROWS } from './fetch-bytes';
import { odsSheets, odtBlocks, readOdfContent } from './odf';

const NAMESPACES =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

async function odf(body: string, files: Record<string, string> = {}): Promise<Blob> {
  const zip = new ZipWriter(new BlobWriter('application/zip'), { useWebWorkers: false });
  await zip.add('content.xml', new TextReader(`<?xml version="1.0"?><office:document-content ${NAMESPACES}><office:body>${body}</office:body></office:document-content>`));
  for (const [name, text] of Object.entries(files)) await zip.add(name, new TextReader(text));
  return zip.close();
}

describe('the OpenDocument reader', () => {
  it('reads a text document as headings and paragraphs, spaces, tabs and lists included', async () => {
    const document = await readOdfContent(
      await odf(
        '<office:text><text:h text:outline-level="2">Title</text:h><text:p>a<text:s text:c="3"/>b<text:tab/>c<text:line-break/>d</text:p>' +
          '<text:list><text:list-item><text:p>item<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>foot</text:p></text:note-body></text:note></text:p></text:list-item></text:list></office:text>',
      ),
    );
    expect(odtBlocks(document)).toEqual([
      { kind: 'heading', level: 2, text: 'Title' },
      { kind: 'paragraph', level: 0, text: 'a   b\tc\nd' },
      { kind: 'paragraph', level: 0, text: 'item1' },
    ]);
  });

  it('reads a spreadsheet sheet by sheet, expanding repeats and dropping trailing empties', async () => {
    const row = (cells: string) => `<table:table-row>${cells}</table:table-row>`;
    const cell = (text: string, repeated = 1) => `<table:table-cell table:number-columns-repeated="${repeated}"><text:p>${text}</text:p></table:table-cell>`;
    const document = await readOdfContent(
      await odf(
        '<office:spreadsheet>' +
          `<table:table table:name="Costs">${row(cell('a') + cell('x', 2) + '<table:table-cell table:number-columns-repeated="16000"/>')}` +
          `<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>` +
          `<table:table table:name="Big"><table:table-row table:number-rows-repeated="5000">${cell('n')}</table:table-row></table:table>` +
          '</office:spreadsheet>',
      ),
    );
    const [costs, big] = odsSheets(document);
    expect(costs).toEqual({ name: 'Costs', rows: [['a', 'x', 'x']], truncated: false });
    expect(big?.name).toBe('Big');
    expect(big?.rows).toHaveLength(SHEET_MAX_ROWS);
    expect(big?.truncated).toBe(true);
  });

  it('refuses a zip without content.xml, and XML that is not well-formed', async () => {
    const zip = new ZipWriter(new BlobWriter('application/zip'), { useWebWorkers: false });
    await zip.add('readme.txt', new TextReader('hi'));
    await expect(readOdfContent(await zip.close())).rejects.toThrow(/content\.xml/);
    const broken = new ZipWriter(new BlobWriter('application/zip'), { useWebWorkers: false });
    await broken.add('content.xml', new TextReader('<a><b></a>'));
    await expect(readOdfContent(await broken.close())).rejects.toThrow(/well-formed/);
    await expect(readOdfContent(new Blob(['not a zip']))).rejects.toThrow();
  });
});
