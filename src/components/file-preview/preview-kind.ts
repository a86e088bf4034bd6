/** Formats rendered in the browser by a viewer of their own (src/components/file-preview/viewers). */
export type DocumentKind = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'epub' | 'zip' | 'archive';
export type PreviewKind = 'image' | 'video' | 'audio' | 'pdf' | 'markdown' | 'html' | 'text' | DocumentKind | 'office' | 'none';

const CODE_EXTENSIONS = new Set([
  'txt', 'log', 'csv', 'tsv', 'json', 'js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx', 'py', 'rb', 'go', 'rs', 'java', 'kt', 'c', 'h',
  'cpp', 'hpp', 'cs', 'php', 'sh', 'bash', 'zsh', 'yml', 'yaml', 'toml', 'ini', 'conf', 'sql', 'xml', 'css', 'scss', 'vue',
  'svelte', 'swift', 'lua', 'pl', 'r', 'dockerfile', 'makefile', 'env', 'gitignore',
]);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd', 'mdwn', 'mdtxt', 'mdtext', 'rmd']);
/** Office formats only the online viewers open (when the admin allows them). */
const OFFICE_EXTENSIONS = new Set(['doc', 'xls', 'ppt', 'odp', 'rtf']);
const DOCUMENT_EXTENSIONS: Record<string, DocumentKind> = {
  docx: 'docx', xlsx: 'xlsx', xlsm: 'xlsx', pptx: 'pptx', odt: 'odt', ods: 'ods', epub: 'epub', zip: 'zip',
  '7z': 'archive', tar: 'archive', tgz: 'archive',
};
/** Types that name a format whatever the file is called. */
const DOCUMENT_TYPES: Record<string, DocumentKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/epub+zip': 'epub',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/x-7z-compressed': 'archive',
  'application/x-tar': 'archive',
};

export const extensionOf = (filename: string) => (filename.includes('.') ? (filename.split('.').pop() ?? '').toLowerCase() : filename.toLowerCase());

/** How a file can be shown in the page, from its type and name. */
export function previewKind(mimetype: string, filename: string): PreviewKind {
  const extension = extensionOf(filename);
  if (MARKDOWN_EXTENSIONS.has(extension) || mimetype === 'text/markdown') return 'markdown';
  if (mimetype === 'text/html' || extension === 'html' || extension === 'htm') return 'html';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('video/')) return 'video';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype === 'application/pdf' || extension === 'pdf') return 'pdf';
  const document = DOCUMENT_EXTENSIONS[extension] ?? DOCUMENT_TYPES[mimetype];
  if (document) return document;
  // .tar.gz only: a lone .gz is one compressed file, not an archive to list.
  if (extension === 'gz' && filename.toLowerCase().endsWith('.tar.gz')) return 'archive';
  if (OFFICE_EXTENSIONS.has(extension)) return 'office';
  if (mimetype.startsWith('text/') || mimetype === 'application/json' || CODE_EXTENSIONS.has(extension)) return 'text';
  return 'none';
}

/** highlight.js language for a code file, when it knows one. */
export function codeLanguage(filename: string): string | undefined {
  const extension = extensionOf(filename);
  const map: Record<string, string> = {
    js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript', ts: 'typescript', tsx: 'typescript',
    py: 'python', sh: 'bash', bash: 'bash', zsh: 'bash', json: 'json', css: 'css', xml: 'xml', sql: 'sql', go: 'go',
    rs: 'rust', java: 'java', yml: 'yaml', yaml: 'yaml',
  };
  return map[extension];
}
