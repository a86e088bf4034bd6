import { BlobReader, TextWriter, ZipReader } from '@zip.js/zip.js';
import { SHEET_MAX_COLUMNS, SHEET_MAX_ROWS } from './fetch-bytes';

const TEXT_NS = 'urn:oasis:names:tc:opendocument:xmlns:text:1.0';
const TABLE_NS = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0';
const OFFICE_NS = 'urn:oasis:names:tc:opendocument:xmlns:office:1.0';

export interface TextBlock {
  kind: 'heading' | 'paragraph';
  /** A heading's outline level, 1 to 6. */
  level: number;
  text: string;
}

export interface SheetTable {
  name: string;
  rows: string[][];
  /** More rows or columns than are shown. */
  truncated: boolean;
}

/** content.xml of an OpenDocument file (a zip), parsed. */
export async function readOdfContent(file: Blob): Promise<Document> {
  const zip = new ZipReader(new BlobReader(file));
  try {
    const entry = (await zip.getEntries()).find((candidate) => candidate.filename === 'content.xml');
    if (!entry || entry.directory) throw new Error('no content.xml: not an OpenDocument file');
    if (entry.encrypted) throw new Error('the document is password-protected');
    const xml = await entry.getData(new TextWriter());
    const document = new DOMParser().parseFromString(xml, 'application/xml');
    if (document.getElementsByTagName('parsererror').length > 0) throw new Error('content.xml is not well-formed');
    return document;
  } finally {
    await zip.close();
  }
}

// By hand rather than getElementsByTagNameNS and getAttributeNS, which the tests' DOM (happy-dom) does not match
// on parsed XML; there an attribute has no namespace, only its prefixed name.
const attribute = (element: Element, namespace: string, name: string) =>
  Array.from(element.attributes).find((candidate) =>
    candidate.namespaceURI ? candidate.namespaceURI === namespace && candidate.localName === name : candidate.name.endsWith(`:${name}`),
  )?.value ?? null;
const is = (node: Element, namespace: string, name: string) => node.namespaceURI === namespace && node.localName === name;

/** Descendants of `root` named `name` in `namespace`, in document order. */
function descendants(root: Element | Document, namespace: string, name: string): Element[] {
  const found: Element[] = [];
  const walk = (parent: Element | Document) => {
    for (const child of Array.from(parent.children)) {
      if (is(child, namespace, name)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}
const repeat = (element: Element, name: string) => Math.max(1, Number(attribute(element, TABLE_NS, name)) || 1);

/** An element's text as ODF spells it: `<text:s text:c="3"/>` is three spaces, tabs and line breaks are elements. */
export function odfText(node: Node): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) text += child.nodeValue ?? '';
    else if (child.nodeType === 1) {
      const element = child as Element;
      if (is(element, TEXT_NS, 's')) text += ' '.repeat(Number(attribute(element, TEXT_NS, 'c')) || 1);
      else if (is(element, TEXT_NS, 'tab')) text += '\t';
      else if (is(element, TEXT_NS, 'line-break')) text += '\n';
      // A footnote's body would land mid-sentence; its citation mark stays.
      else if (is(element, TEXT_NS, 'note-body')) continue;
      else text += odfText(element);
    }
  }
  return text;
}

/** A text document's headings and paragraphs, in order (lists and tables flatten to their paragraphs). */
export function odtBlocks(document: Document): TextBlock[] {
  const body = descendants(document, OFFICE_NS, 'text')[0];
  const blocks: TextBlock[] = [];
  const walk = (parent: Element) => {
    for (const element of Array.from(parent.children)) {
      if (is(element, TEXT_NS, 'h')) {
        const level = Math.min(6, Math.max(1, Number(attribute(element, TEXT_NS, 'outline-level')) || 1));
        blocks.push({ kind: 'heading', level, text: odfText(element) });
      } else if (is(element, TEXT_NS, 'p')) {
        blocks.push({ kind: 'paragraph', level: 0, text: odfText(element) });
      } else walk(element);
    }
  };
  if (body) walk(body);
  return blocks;
}

/**
 * A spreadsheet's sheets as rows of cell texts. Repeated rows and cells are expanded (a sheet's trailing empty
 * rows are often "repeated a million times"), up to SHEET_MAX_ROWS × SHEET_MAX_COLUMNS; trailing empties dropped.
 */
export function odsSheets(document: Document): SheetTable[] {
  return descendants(document, TABLE_NS, 'table').map((table) => {
    const rows: string[][] = [];
    let truncated = false;
    for (const row of descendants(table, TABLE_NS, 'table-row')) {
      const cells: string[] = [];
      for (const cell of Array.from(row.children)) {
        if (!is(cell, TABLE_NS, 'table-cell') && !is(cell, TABLE_NS, 'covered-table-cell')) continue;
        const text = descendants(cell, TEXT_NS, 'p').map(odfText).join('\n');
        const times = repeat(cell, 'number-columns-repeated');
        for (let index = 0; index < times && cells.length <= SHEET_MAX_COLUMNS; index++) cells.push(text);
      }
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      if (cells.length > SHEET_MAX_COLUMNS) {
        cells.length = SHEET_MAX_COLUMNS;
        truncated = true;
      }
      const times = repeat(row, 'number-rows-repeated');
      for (let index = 0; index < times && rows.length <= SHEET_MAX_ROWS; index++) rows.push(cells);
    }
    while (rows.length > 0 && rows[rows.length - 1]?.length === 0) rows.pop();
    if (rows.length > SHEET_MAX_ROWS) {
      rows.length = SHEET_MAX_ROWS;
      truncated = true;
    }
    return { name: attribute(table, TABLE_NS, 'name') ?? '', rows, truncated };
  });
}
