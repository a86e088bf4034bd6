import type * as DocxModule from 'docx';
import type { Token, Tokens } from 'marked';

type Docx = typeof DocxModule;
type Block = InstanceType<Docx['Paragraph']> | InstanceType<Docx['Table']>;

const MONO = 'Courier New';

/** Markdown to a Word document: headings, paragraphs with bold/italic/code/links, lists, quotes, code, tables. */
export async function markdownToDocx(markdown: string): Promise<Blob> {
  const [docx, { Lexer }] = await Promise.all([import('docx'), import('marked')]);
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  const children = tokens.flatMap((token) => blocks(docx, token, 0));
  const document = new docx.Document({
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: [0, 1, 2].map((level) => ({
            level,
            format: docx.LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: docx.AlignmentType.START,
          })),
        },
      ],
    },
    sections: [{ children: children.length > 0 ? children : [new docx.Paragraph('')] }],
  });
  return docx.Packer.toBlob(document);
}

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
}

function runs(docx: Docx, tokens: Token[] | undefined, style: RunStyle = {}): InstanceType<Docx['TextRun']>[] {
  if (!tokens) return [];
  return tokens.flatMap((token) => {
    switch (token.type) {
      case 'strong':
        return runs(docx, (token as Tokens.Strong).tokens, { ...style, bold: true });
      case 'em':
        return runs(docx, (token as Tokens.Em).tokens, { ...style, italics: true });
      case 'del':
        return runs(docx, (token as Tokens.Del).tokens, { ...style, strike: true });
      case 'codespan':
        return [new docx.TextRun({ text: (token as Tokens.Codespan).text, font: MONO, ...style })];
      case 'link':
        return [new docx.TextRun({ text: `${(token as Tokens.Link).text} (${(token as Tokens.Link).href})`, ...style })];
      case 'br':
        return [new docx.TextRun({ text: '', break: 1 })];
      case 'text':
        return (token as Tokens.Text).tokens
          ? runs(docx, (token as Tokens.Text).tokens, style)
          : [new docx.TextRun({ text: decodeEntities((token as Tokens.Text).text), ...style })];
      default:
        return 'text' in token && typeof token.text === 'string' ? [new docx.TextRun({ text: decodeEntities(token.text), ...style })] : [];
    }
  });
}

function blocks(docx: Docx, token: Token, depth: number): Block[] {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const levels = [docx.HeadingLevel.HEADING_1, docx.HeadingLevel.HEADING_2, docx.HeadingLevel.HEADING_3, docx.HeadingLevel.HEADING_4, docx.HeadingLevel.HEADING_5, docx.HeadingLevel.HEADING_6];
      return [new docx.Paragraph({ heading: levels[heading.depth - 1], children: runs(docx, heading.tokens) })];
    }
    case 'paragraph':
      return [new docx.Paragraph({ children: runs(docx, (token as Tokens.Paragraph).tokens) })];
    case 'code':
      return (token as Tokens.Code).text.split('\n').map(
        (line) => new docx.Paragraph({ children: [new docx.TextRun({ text: line, font: MONO, size: 20 })] }),
      );
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.flatMap((inner) => blocks(docx, inner, depth));
    case 'list': {
      const list = token as Tokens.List;
      return list.items.flatMap((item) => {
        const [first, ...rest] = item.tokens;
        const checkbox = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
        const lead = new docx.Paragraph({
          children: [new docx.TextRun(checkbox), ...runs(docx, first && 'tokens' in first ? (first.tokens as Token[]) : [])],
          ...(list.ordered ? { numbering: { reference: 'ordered', level: Math.min(depth, 2) } } : { bullet: { level: Math.min(depth, 2) } }),
        });
        return [lead, ...rest.flatMap((inner) => blocks(docx, inner, depth + 1))];
      });
    }
    case 'table': {
      const table = token as Tokens.Table;
      const row = (cells: Tokens.TableCell[], bold: boolean) =>
        new docx.TableRow({
          children: cells.map((cell) => new docx.TableCell({ children: [new docx.Paragraph({ children: runs(docx, cell.tokens, { bold }) })] })),
        });
      return [
        new docx.Table({
          width: { size: 100, type: docx.WidthType.PERCENTAGE },
          rows: [row(table.header, true), ...table.rows.map((cells) => row(cells, false))],
        }),
      ];
    }
    case 'hr':
      return [new docx.Paragraph({ thematicBreak: true })];
    case 'space':
      return [];
    default:
      return 'text' in token && typeof token.text === 'string' ? [new docx.Paragraph(decodeEntities(token.text))] : [];
  }
}

/** marked escapes &, <, > and quotes in text tokens; Word wants the characters. */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
