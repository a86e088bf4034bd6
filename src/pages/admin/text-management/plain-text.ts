/** Lines that carry only Markdown's structure: code fences, a table's delimiter row, horizontal rules. */
const STRUCTURE_LINE = /^\s*(?:`{3,}.*|~{3,}.*|\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?|(?:[-*_]\s*){3,})$/;

/** A line's block markers: headings, quotes, list bullets and numbers, task boxes. */
const BLOCK_MARKERS = /^\s*(?:>\s?)*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)?/;

/** A table row's cells, joined by spaces: "| Item | Qty |" is "Item Qty". */
function tableCells(line: string): string {
  if (!/^\s*\|.*\|\s*$/.test(line)) return line;
  return line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim())
    .filter(Boolean)
    .join(' ');
}

/** An escaped character (`\*`) stands aside, as a private-use code, while the syntax around it is taken out. */
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!|~>])/g;
const SET_ASIDE = /\uE000(\d+)\uE001/g;

function inlineText(line: string): string {
  return (
    line
      .replace(ESCAPED, (_, char: string) => `\uE000${char.charCodeAt(0)}\uE001`)
      // Images and links keep their words, reference definitions nothing.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/^\s*\[[^\]]+\]:\s+\S.*$/, '')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      .replace(/`+([^`]*)`+/g, '$1')
      // Emphasis and strike-through; an underscore inside a word (snake_case) is no emphasis.
      .replace(/(\*{1,3}|~~)(\S(?:.*?\S)?)\1/g, '$2')
      .replace(/(^|\W)(_{1,3})(\S(?:.*?\S)?)\2(?=\W|$)/g, '$1$3')
      .replace(SET_ASIDE, (_, code: string) => String.fromCharCode(Number(code)))
  );
}

/**
 * A Markdown text's words without its syntax, on one line: a list's preview of a paste (`| Item | Qty |` reads
 * "Item Qty", `**bold**` "bold", `[docs](https://…)` "docs"). Line-based, so a preview cut off mid-way still reads well.
 */
export function markdownToPlainText(markdown: string): string {
  return markdown
    .split(/\r?\n/)
    .filter((line) => !STRUCTURE_LINE.test(line))
    .map((line) => inlineText(tableCells(line.replace(BLOCK_MARKERS, ''))))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
