/**
 * Where CloudPaste's answers differ in shape from Clipstash's envelope, and how the compat face turns one into the
 * other. Only successful JSON answers of these routes change; everything else is answered as `/api` answers it.
 */

type Envelope = { code: number; message: string; data: unknown; success: boolean };
type Shape = (answer: Envelope) => unknown;

interface Reshape {
  method: string;
  path: RegExp;
  shape: Shape;
}

/** CloudPaste's snake_case names of list fields Clipstash writes in camelCase; both are given. */
const CLOUDPASTE_NAMES: Readonly<Record<string, string>> = {
  hasPassword: 'has_password',
  expiresAt: 'expires_at',
  maxViews: 'max_views',
  createdAt: 'created_at',
  createdBy: 'created_by',
  updatedAt: 'updated_at',
};

function withCloudPasteNames(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const record = item as Record<string, unknown>;
  const aliases = Object.entries(CLOUDPASTE_NAMES)
    .filter(([ours, theirs]) => ours in record && !(theirs in record))
    .map(([ours, theirs]) => [theirs, record[ours]]);
  return { ...record, ...Object.fromEntries(aliases) };
}

interface ListData {
  items: unknown[];
  pagination: unknown;
}
const isListData = (data: unknown): data is ListData =>
  typeof data === 'object' && data !== null && Array.isArray((data as ListData).items);

/** Pastes: `data` is the array and `pagination` sits beside it. */
const pasteList: Shape = (answer) => {
  if (!isListData(answer.data)) return answer;
  return { ...answer, data: answer.data.items.map(withCloudPasteNames), pagination: answer.data.pagination };
};

/** File shares: `data.files` and `data.pagination`. */
const fileList: Shape = (answer) => {
  if (!isListData(answer.data)) return answer;
  return { ...answer, data: { files: answer.data.items.map(withCloudPasteNames), pagination: answer.data.pagination } };
};

/**
 * One share, as the edit dialogs read it before and after an edit (FileEditModal.vue reads `max_views`,
 * `expires_at`, `has_password`; PasteEditModal.vue `max_views`, `expires_at`): in CloudPaste's names too.
 */
const oneShare: Shape = (answer) => ({ ...answer, data: withCloudPasteNames(answer.data) });

/** The paste page reads the paste itself, locked (`requiresPassword`) or with its content. */
const bare: Shape = (answer) => answer.data;

const RESHAPES: readonly Reshape[] = [
  { method: 'GET', path: /^\/api\/paste\/[^/]+$/, shape: bare },
  { method: 'POST', path: /^\/api\/paste\/[^/]+$/, shape: bare },
  { method: 'GET', path: /^\/api\/(admin|user)\/pastes$/, shape: pasteList },
  { method: 'GET', path: /^\/api\/(admin|user)\/files$/, shape: fileList },
  { method: 'GET', path: /^\/api\/(admin|user)\/(files|pastes)\/[^/]+$/, shape: oneShare },
  { method: 'PUT', path: /^\/api\/(admin|user)\/(files|pastes)\/[^/]+$/, shape: oneShare },
];

/** How the answer to `method path` (a path under `/api`) is shaped for CloudPaste; undefined: as it is. */
export function cloudPasteShapeOf(method: string, path: string): Shape | undefined {
  return RESHAPES.find((reshape) => reshape.method === method && reshape.path.test(path))?.shape;
}

/** The answer in CloudPaste's shape: only a successful envelope changes, never an error. */
export function reshapeAnswer(shape: Shape, answer: unknown): unknown {
  const envelope = answer as Partial<Envelope> | null;
  if (typeof envelope !== 'object' || envelope === null || envelope.success !== true || !('data' in envelope)) return answer;
  return shape(envelope as Envelope);
}
