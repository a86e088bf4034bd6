import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { BlobWriter, TextReader, Uint8ArrayReader, ZipWriter } from '@zip.js/zip.js';
import { Document, Packer, Paragraph, TextRun } from 'docx';

/**
 * Small Office, EPUB and zip files made here, for the preview tests: each the least its format's readers need.
 * XML parts are written as text; zips by zip.js (no workers in Node).
 */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

async function zipOf(files: Record<string, string | Uint8Array>, stored: string[] = []): Promise<Buffer> {
  const zip = new ZipWriter(new BlobWriter('application/zip'), { useWebWorkers: false });
  for (const [name, content] of Object.entries(files)) {
    const reader = typeof content === 'string' ? new TextReader(content) : new Uint8ArrayReader(content);
    await zip.add(name, reader, { level: stored.includes(name) ? 0 : 6 });
  }
  return Buffer.from(await (await zip.close()).arrayBuffer());
}

export async function docxFile(text: string): Promise<Buffer> {
  const document = new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun(text)] })] }] });
  return Packer.toBuffer(document);
}

const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

/** A workbook with a sheet per entry, each a row of strings. */
export async function xlsxFile(sheets: Record<string, string[]>): Promise<Buffer> {
  const names = Object.keys(sheets);
  const strings = names.flatMap((name) => sheets[name] ?? []);
  const column = (index: number) => String.fromCharCode(65 + index);
  let next = 0;
  const files: Record<string, string> = {
    '[Content_Types].xml':
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${CT}.spreadsheetml.sheet.main+xml"/>` +
      names.map((_, index) => `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="${CT}.spreadsheetml.worksheet+xml"/>`).join('') +
      `<Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.spreadsheetml.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `${XML}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${RELS}"><sheets>` +
      names.map((name, index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      `${XML}<Relationships xmlns="${PKG_RELS}">` +
      names.map((_, index) => `<Relationship Id="rId${index + 1}" Type="${RELS}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${names.length + 1}" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/sharedStrings.xml':
      `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((text) => `<si><t>${text}</t></si>`).join('') +
      '</sst>',
  };
  names.forEach((name, index) => {
    const cells = (sheets[name] ?? []).map((_, cell) => `<c r="${column(cell)}1" t="s"><v>${next++}</v></c>`).join('');
    files[`xl/worksheets/sheet${index + 1}.xml`] =
      `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${cells}</row></sheetData></worksheet>`;
  });
  return zipOf(files);
}

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS = `xmlns:a="${A}" xmlns:r="${RELS}" xmlns:p="${P}"`;
const EMPTY_TREE =
  '<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld>';
const THEME =
  `${XML}<a:theme xmlns:a="${A}" name="Plain"><a:themeElements><a:clrScheme name="Plain">` +
  ['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink']
    .map((name, index) => `<a:${name}><a:srgbClr val="${index % 2 ? 'FFFFFF' : '000000'}"/></a:${name}>`)
    .join('') +
  '</a:clrScheme><a:fontScheme name="Plain"><a:majorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>' +
  '<a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
  '<a:fmtScheme name="Plain"><a:fillStyleLst/><a:lnStyleLst/><a:effectStyleLst/><a:bgFillStyleLst/></a:fmtScheme></a:themeElements></a:theme>';

/** A presentation of one slide with one text box. */
export async function pptxFile(text: string): Promise<Buffer> {
  const relation = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${RELS}/${type}" Target="${target}"/>`;
  const relations = (...items: string[]) => `${XML}<Relationships xmlns="${PKG_RELS}">${items.join('')}</Relationships>`;
  return zipOf({
    '[Content_Types].xml':
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/ppt/presentation.xml" ContentType="${CT}.presentationml.presentation.main+xml"/>` +
      `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${CT}.presentationml.slideMaster+xml"/>` +
      `<Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="${CT}.presentationml.slideLayout+xml"/>` +
      `<Override PartName="/ppt/slides/slide1.xml" ContentType="${CT}.presentationml.slide+xml"/>` +
      `<Override PartName="/ppt/theme/theme1.xml" ContentType="${CT}.theme+xml"/></Types>`,
    '_rels/.rels': relations(relation('rId1', 'officeDocument', 'ppt/presentation.xml')),
    'ppt/presentation.xml':
      `${XML}<p:presentation ${NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
      '<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst><p:sldSz cx="9144000" cy="5143500"/><p:notesSz cx="6858000" cy="9144000"/>' +
      '<p:defaultTextStyle><a:lvl1pPr><a:defRPr sz="1800"/></a:lvl1pPr></p:defaultTextStyle></p:presentation>',
    'ppt/_rels/presentation.xml.rels': relations(
      relation('rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'),
      relation('rId2', 'slide', 'slides/slide1.xml'),
      relation('rId3', 'theme', 'theme/theme1.xml'),
    ),
    'ppt/slideMasters/slideMaster1.xml':
      `${XML}<p:sldMaster ${NS}>${EMPTY_TREE}<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" ` +
      'accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': relations(relation('rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'), relation('rId2', 'theme', '../theme/theme1.xml')),
    'ppt/slideLayouts/slideLayout1.xml': `${XML}<p:sldLayout ${NS}>${EMPTY_TREE}<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`,
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': relations(relation('rId1', 'slideMaster', '../slideMasters/slideMaster1.xml')),
    'ppt/slides/slide1.xml':
      `${XML}<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
      '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
      '<p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
      `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="3200"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>` +
      '</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>',
    'ppt/slides/_rels/slide1.xml.rels': relations(relation('rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml')),
    'ppt/theme/theme1.xml': THEME,
  });
}

/** An EPUB 3 book of two chapters, with a table of contents; the first chapter carries a script that must not run. */
export async function epubFile(chapters: [string, string][]): Promise<Buffer> {
  const chapter = (title: string, body: string, script: boolean) =>
    `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p>` +
    (script ? '<script>parent.postMessage("epub-script-ran", "*")</script>' : '') +
    '</body></html>';
  const files: Record<string, string> = {
    mimetype: 'application/epub+zip',
    'META-INF/container.xml':
      `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>` +
      '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    'OEBPS/content.opf':
      `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
      '<dc:identifier id="id">urn:uuid:0b0e0f00-0000-4000-8000-000000000001</dc:identifier><dc:title>A small book</dc:title><dc:language>en</dc:language></metadata><manifest>' +
      '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' +
      chapters.map((_, index) => `<item id="c${index}" href="c${index}.xhtml" media-type="application/xhtml+xml"/>`).join('') +
      '</manifest><spine>' +
      chapters.map((_, index) => `<itemref idref="c${index}"/>`).join('') +
      '</spine></package>',
    'OEBPS/nav.xhtml':
      `${XML}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol>` +
      chapters.map(([title], index) => `<li><a href="c${index}.xhtml">${title}</a></li>`).join('') +
      '</ol></nav></body></html>',
  };
  chapters.forEach(([title, body], index) => (files[`OEBPS/c${index}.xhtml`] = chapter(title, body, index === 0)));
  return zipOf(files, ['mimetype']);
}

/** A zip of a text file behind a large stored entry of random bytes: reading the text must not read the filler. */
export async function zipWithFiller(textName: string, text: string, fillerBytes: number): Promise<Buffer> {
  return zipOf({ 'filler.bin': new Uint8Array(randomBytes(fillerBytes)), [textName]: text }, ['filler.bin']);
}

/** A gzipped tar (ustar) of the given text files. */
export function tarGzFile(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const body = Buffer.from(text);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136);
    header.write('        ', 148); // the checksum counts its own field as spaces
    header.write('0', 156);
    header.write('ustar\0' + '00', 257);
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}
