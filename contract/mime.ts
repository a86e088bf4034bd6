import { MARKDOWN_EXTENSIONS } from './files';

/** Types by extension for files whose storage does not say (listings, LOCAL files): the common ones. */
const TYPES: Record<string, string> = {
  txt: 'text/plain', log: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', ini: 'text/plain', conf: 'text/plain',
  html: 'text/html', htm: 'text/html', css: 'text/css', xml: 'application/xml', json: 'application/json', yaml: 'text/yaml', yml: 'text/yaml',
  toml: 'text/plain', js: 'text/javascript', mjs: 'text/javascript', ts: 'text/plain', tsx: 'text/plain', jsx: 'text/plain',
  py: 'text/x-python', rb: 'text/plain', go: 'text/plain', rs: 'text/plain', java: 'text/plain', c: 'text/plain', h: 'text/plain',
  cpp: 'text/plain', cs: 'text/plain', php: 'text/plain', sh: 'text/x-shellscript', sql: 'text/plain', vue: 'text/plain',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', bmp: 'image/bmp',
  ico: 'image/x-icon', svg: 'image/svg+xml', heic: 'image/heic', heif: 'image/heif',
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', mkv: 'video/x-matroska', avi: 'video/x-msvideo',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac', m4a: 'audio/mp4', aac: 'audio/aac', opus: 'audio/opus',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar', '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar', doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', epub: 'application/epub+zip', wasm: 'application/wasm',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf',
};

/** The MIME type of a file name by its extension; Markdown as §5 says; generic binary when unknown. */
export function mimeTypeOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
  if ((MARKDOWN_EXTENSIONS as readonly string[]).includes(extension)) return 'text/markdown';
  return TYPES[extension] ?? 'application/octet-stream';
}
