import type * as v from 'valibot';

/** The groups the reference page shows, in its order. */
export const TAGS = [
  { name: 'Pastes', description: 'Text shares: create, read, unlock, the raw link, and management of your own or (admin) all.' },
  { name: 'File shares', description: 'Files by short link: the one-request form upload, presign + commit, and management.' },
  {
    name: 'Large and URL uploads',
    description:
      'Multipart uploads for large files (init → sign parts → PUT each part → complete), uploads from a web address, ' +
      'and the signed storage URLs of the built-in local storage.',
  },
  { name: 'Visitors', description: 'What a share link opens: share info, password check, the bytes inline or as a download.' },
  { name: 'Mount file system', description: 'Folders and files of the mounts: list, read, write, move, copy, links, uploads.' },
  { name: 'Mounts', description: 'Mount points: a storage configuration shown as a folder of the mount file system.' },
  { name: 'Storage', description: 'Storage configurations (S3-compatible or local folders).' },
  { name: 'Auth and keys', description: 'Admin login and session, API keys, and the credential checks.' },
  { name: 'Expenses', description: 'Expense claims with receipts: filing, the review lifecycle, and the CSV export.' },
  {
    name: 'Jobs',
    description:
      'Copies, moves and syncs between mounts that the server runs itself, from a durable record: they go on without ' +
      'the browser, survive a restart, and are watched live over Server-Sent Events.',
  },
  { name: 'File requests', description: 'Links through which people without an account send files: management, and the senders\' grant and uploads.' },
  { name: 'Search', description: 'Files of the mounts by name, and pastes and file shares by their words.' },
  {
    name: 'Webhooks',
    description: 'Signed HTTP POSTs to other tools when shares, file requests, expense claims and jobs change, from a durable outbox.',
  },
  { name: 'Tasks', description: 'What the server moves: the live transfers of every instance, for the admin.' },
  { name: 'System', description: 'Health, version, limits, settings, the dashboard, and this API description.' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
/** `METHOD /api/...` exactly as Hono lists the route (`:param`, trailing `*`). */
export type RouteKey = `${Method} /api/${string}`;

export type SuccessStatus = 200 | 201 | 202;
/** Failures a route documents besides those its middlewares imply (400 for checked input, 401/403 for access). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 416 | 422 | 429 | 503;

/** An answer that is not the JSON envelope: a stream, plain text, a page, an empty body. */
export interface RawAnswer {
  status: number;
  description: string;
  /** Absent: no body. */
  contentType?: string;
  headers?: readonly string[];
}

/** Response headers by name → what they tell (Markdown). */
export type HeaderDocs = Readonly<Record<string, string>>;

/**
 * The `HEAD` of a `GET` route, documented as an operation of its own: Hono answers a HEAD with the GET handler, and
 * where the handler makes it a peek (no view spent) its headers are the point.
 */
export interface HeadDoc {
  summary: string;
  description: string;
  headers: HeaderDocs;
}

export interface RouteDoc {
  summary: string;
  tag: Tag;
  /** Markdown. Access and the permission a key needs are added from the route's middleware. */
  description?: string;
  /** `data` of the success envelope; absent with `raw`. */
  data?: v.GenericSchema;
  /** The statuses that envelope comes with; [200] when absent. */
  ok?: readonly SuccessStatus[];
  /** Answers that replace the envelope. */
  raw?: readonly RawAnswer[];
  /** Headers every success answer carries, besides those `raw` names. */
  headers?: HeaderDocs;
  /** A GET's HEAD, when it answers something worth its own operation. */
  head?: HeadDoc;
  errors?: readonly ErrorStatus[];
  /** Failures are `text/plain`, not the envelope (the raw link). */
  plainErrors?: boolean;
  /** Query parameters the handler reads itself, without a validator in front. */
  query?: v.GenericSchema;
  /** A multipart form: its text fields and the name of the file part. */
  form?: { fields: v.GenericSchema; file: string };
  /** The body is the bytes themselves; the text says which. */
  binaryBody?: string;
}

export type RouteDocs = Partial<Record<RouteKey, RouteDoc>>;

/** Docs of routes whose paths are computed (twins under `/admin` and `/user`), checked like literal keys. */
export const docsOf = (entries: readonly (readonly [RouteKey, RouteDoc])[]): RouteDocs => Object.fromEntries(entries);
