/**
 * The Markdown dialect of the app: GitHub-flavoured (tables, task lists, fenced code, autolinks), a single line
 * break is no break. The server renders a paste's HTML for its readers with it (server/services/markdown.ts), the
 * browser its previews (src/lib/markdown/markdown-parser.ts): both give the same HTML for the same text.
 */
export const MARKDOWN_OPTIONS = { gfm: true, breaks: false, async: false } as const;
