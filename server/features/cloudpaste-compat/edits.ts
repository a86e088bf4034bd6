/**
 * The edits CloudPaste's frontend sends in names and meanings of its own, and how the compat face turns each into
 * the `/api` request that does the same. Only names and CloudPaste's "null" and "" markers change: every value goes
 * on to `/api`, which checks it as it checks its own clients' (a failure then names the field CloudPaste sent).
 */
import type { AppDeps } from '../../context';
import { translate, type Lang } from '../../i18n/messages';
import { pasteIdOfSlug } from '../pastes/pastes';
import { generateSlug } from '../shares/slugs';

type Body = Record<string, unknown>;

/** An edit in `/api`'s terms, and the name CloudPaste sent for each field of it. */
export interface RewrittenEdit {
  path: string;
  body: Body;
  sentAs: Readonly<Record<string, string>>;
}

interface Edit {
  method: string;
  path: RegExp;
  rewrite: (deps: AppDeps, path: string, sent: Body) => Promise<RewrittenEdit>;
}

/**
 * A file share's edit (FileEditModal.vue): snake_case names; `slug: null` when the link field is left empty (the
 * share keeps its slug), `remark: null` to clear it, `max_views: null` for no limit, `password: ""` to remove the
 * password (absent: unchanged), and `use_proxy`, which Clipstash has no use for (it always serves the bytes).
 */
async function fileEdit(_deps: AppDeps, path: string, sent: Body): Promise<RewrittenEdit> {
  const { slug, remark, expires_at, max_views, password, use_proxy: _proxy, ...rest } = sent;
  const body: Body = { ...rest };
  if (slug !== undefined && slug !== null) body.slug = slug;
  if (remark !== undefined) body.remark = remark ?? '';
  if (expires_at !== undefined) body.expiresAt = expires_at;
  if (max_views !== undefined) body.maxViews = max_views ?? 0;
  if (password !== undefined) body.password = password === '' ? null : password;
  return { path, body, sentAs: { expiresAt: 'expires_at', maxViews: 'max_views' } };
}

/**
 * A paste's edit (PasteEditModal.vue, PasteViewEditor.vue), sent to `/pastes/{slug}`: `slug` is the current one
 * and `newSlug` the one asked for (null or "": a new random link, as CloudPaste made); `clearPassword: true` removes
 * the password; `remark: null` clears it and `maxViews: null` means no limit.
 */
async function pasteEdit(deps: AppDeps, path: string, sent: Body): Promise<RewrittenEdit> {
  const { slug: _current, newSlug, clearPassword, password, remark, maxViews, ...rest } = sent;
  const body: Body = { ...rest };
  if (remark !== undefined) body.remark = remark ?? '';
  if (maxViews !== undefined) body.maxViews = maxViews ?? 0;
  if (password !== undefined && password !== '') body.password = password;
  else if (clearPassword === true) body.password = null;
  if (newSlug !== undefined) body.slug = newSlug === null || newSlug === '' ? await generateSlug(deps.db, 'pastes') : newSlug;
  // A slug no paste has goes on as it is: `/api` answers its 404 (or finds a paste of that id).
  const named = path.slice(path.lastIndexOf('/') + 1);
  const id = await pasteIdOfSlug(deps.db, decodeURIComponent(named));
  const apiPath = id === undefined ? path : `${path.slice(0, path.lastIndexOf('/'))}/${encodeURIComponent(id)}`;
  return { path: apiPath, body, sentAs: { slug: 'newSlug' } };
}

const EDITS: readonly Edit[] = [
  { method: 'PUT', path: /^\/api\/(admin|user)\/files\/[^/]+$/, rewrite: fileEdit },
  { method: 'PUT', path: /^\/api\/(admin|user)\/pastes\/[^/]+$/, rewrite: pasteEdit },
];

/** Whether `method path` (a path under `/api`) is an edit CloudPaste sends in its own terms. */
export const isCloudPasteEdit = (method: string, path: string): boolean =>
  EDITS.some((edit) => edit.method === method && edit.path.test(path));

/**
 * The edit `text` (CloudPaste's JSON body) as `/api` takes it; undefined when it is not a JSON object, which then
 * goes on untouched for `/api` to refuse as it would.
 */
export async function rewriteEdit(deps: AppDeps, method: string, path: string, text: string): Promise<RewrittenEdit | undefined> {
  const edit = EDITS.find((candidate) => candidate.method === method && candidate.path.test(path));
  let sent: unknown;
  try {
    sent = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!edit || typeof sent !== 'object' || sent === null || Array.isArray(sent)) return undefined;
  return edit.rewrite(deps, path, sent as Body);
}

interface FailureData {
  field?: unknown;
  issue?: unknown;
}

/**
 * A refusal of the rewritten edit, naming the field as CloudPaste sent it: `data.field`, and the message when it is
 * the "invalid value for {field}" one.
 */
export function inSentNames(answer: unknown, sentAs: Readonly<Record<string, string>>, lang: Lang): unknown {
  const envelope = answer as { message?: unknown; data?: FailureData } | null;
  const data = envelope?.data;
  if (typeof data !== 'object' || data === null || typeof data.field !== 'string') return answer;
  const sent = sentAs[data.field];
  if (sent === undefined) return answer;
  const issue = String(data.issue);
  const message = envelope?.message === translate('invalid_input', lang, { field: data.field, issue })
    ? translate('invalid_input', lang, { field: sent, issue })
    : envelope?.message;
  return { ...envelope, message, data: { ...data, field: sent } };
}
