import type { Element } from '@xmldom/xmldom';
import type { AppDeps } from '../../context';
import { resolveTarget } from '../fs/resolve';
import { uploadLimits } from '../storages/upload-limits';
import { nameOf, pathOfSegments } from '../fs/paths';
import { xmlBodyOf } from './body';
import { assertUnlocked, checkIf } from './conditions';
import type { DavRequest } from './context';
import { byPropKey, deadPropsOf, patchDeadProps, type DeadProp, type PropPatch } from './dead-props';
import { DavError } from './errors';
import { locksCoveringEach, secondsLeft, type DavLock } from './lock-store';
import { depthOf, hrefOf } from './request';
import { membersOf, resourceAt, type DavResource } from './resources';
import { childElements, DAV_NS, DavDocument, isDav, multistatusXml, nameOfElement, propKey, serialize, type PropName } from './xml';

/** The live properties this server computes, in the order allprop lists them. */
const LIVE = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
] as const;
type LiveName = (typeof LIVE)[number];
const isLive = (prop: PropName): prop is { namespace: typeof DAV_NS; name: LiveName } =>
  prop.namespace === DAV_NS && (LIVE as readonly string[]).includes(prop.name);

/** Which properties a PROPFIND asks for. */
type Wanted = { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

function wantedOf(root: Element | undefined): Wanted {
  if (!root) return { kind: 'allprop', include: [] };
  if (!isDav(root, 'propfind')) throw new DavError(400);
  const children = childElements(root);
  const prop = children.find((child) => isDav(child, 'prop'));
  if (prop) return { kind: 'prop', props: childElements(prop).map(nameOfElement) };
  if (children.some((child) => isDav(child, 'propname'))) return { kind: 'propname' };
  if (children.some((child) => isDav(child, 'allprop'))) {
    const include = children.find((child) => isDav(child, 'include'));
    return { kind: 'allprop', include: include ? childElements(include).map(nameOfElement) : [] };
  }
  throw new DavError(400);
}

/** RFC 4331 quota properties: only when named (they are not part of allprop), on folders of a storage with a quota. */
const QUOTA = ['quota-available-bytes', 'quota-used-bytes'] as const;
type QuotaName = (typeof QUOTA)[number];
const isQuota = (prop: PropName): prop is { namespace: typeof DAV_NS; name: QuotaName } =>
  prop.namespace === DAV_NS && (QUOTA as readonly string[]).includes(prop.name);

/** What one resource's response needs besides itself: its dead properties, the locks that cover it, its quota. */
interface Extras {
  dead: DeadProp[];
  locks: DavLock[];
  quota?: { used: number; total: number };
}

/** Writes one live property's value into `element`; false when the resource has no such property. */
function writeLive(out: DavDocument, element: Element, name: LiveName, resource: DavResource, extras: Extras, deps: AppDeps): boolean {
  switch (name) {
    case 'creationdate':
      if (!resource.modified) return false;
      element.appendChild(out.document.createTextNode(resource.modified.toISOString()));
      return true;
    case 'displayname':
      element.appendChild(out.document.createTextNode(nameOf(resource.path)));
      return true;
    case 'getcontentlength':
      if (resource.isFolder) return false;
      element.appendChild(out.document.createTextNode(String(resource.size)));
      return true;
    case 'getcontenttype':
      if (resource.isFolder) return false;
      element.appendChild(out.document.createTextNode(resource.contentType));
      return true;
    case 'getetag':
      if (!resource.etag) return false;
      element.appendChild(out.document.createTextNode(`"${resource.etag}"`));
      return true;
    case 'getlastmodified':
      if (!resource.modified) return false;
      element.appendChild(out.document.createTextNode(resource.modified.toUTCString()));
      return true;
    case 'resourcetype':
      if (resource.isFolder) out.dav(element, 'collection');
      return true;
    case 'supportedlock':
      for (const scope of ['exclusive', 'shared']) {
        const entry = out.dav(element, 'lockentry');
        out.dav(out.dav(entry, 'lockscope'), scope);
        out.dav(out.dav(entry, 'locktype'), 'write');
      }
      return true;
    case 'lockdiscovery':
      for (const lock of extras.locks) writeActiveLock(out, element, lock, deps);
      return true;
  }
}

/** One `DAV:activelock` (PROPFIND's lockdiscovery and LOCK's answer). */
export function writeActiveLock(out: DavDocument, parent: Element, lock: DavLock, deps: AppDeps): void {
  const active = out.dav(parent, 'activelock');
  out.dav(out.dav(active, 'locktype'), 'write');
  out.dav(out.dav(active, 'lockscope'), lock.scope);
  out.dav(active, 'depth', lock.depth === '0' ? '0' : 'infinity');
  if (lock.owner) out.imported(active, lock.owner);
  out.dav(active, 'timeout', `Second-${secondsLeft(deps, lock)}`);
  out.dav(out.dav(active, 'locktoken'), 'href', lock.token);
  out.dav(out.dav(active, 'lockroot'), 'href', hrefOf(pathOfSegments(lock.path.split('/').filter(Boolean)), false));
}

/** One `DAV:response` with a 200 propstat for what was found and a 404 one for what was not. */
function responseOf(resource: DavResource, wanted: Wanted, extras: Extras, deps: AppDeps): DavDocument {
  const out = new DavDocument('response');
  const response = out.root;
  out.dav(response, 'href', hrefOf(resource.path, resource.isFolder));
  const found = out.document.createElementNS(DAV_NS, 'D:prop');
  const missing = out.document.createElementNS(DAV_NS, 'D:prop');
  const dead = byPropKey(extras.dead);
  const names: PropName[] =
    wanted.kind === 'prop'
      ? wanted.props
      : [...LIVE.map((name) => ({ namespace: DAV_NS, name })), ...extras.dead, ...(wanted.kind === 'allprop' ? wanted.include : [])];
  const seen = new Set<string>();
  for (const prop of names) {
    if (seen.has(propKey(prop))) continue;
    seen.add(propKey(prop));
    const stored = dead.get(propKey(prop));
    if (wanted.kind === 'propname') {
      if (stored || !isLive(prop) || isLiveOf(prop.name, resource)) out.empty(found, prop);
    } else if (stored) out.imported(found, stored.xml);
    else if (isQuota(prop) && extras.quota) {
      const { used, total } = extras.quota;
      out.dav(found, prop.name, String(prop.name === 'quota-used-bytes' ? used : Math.max(0, total - used)));
    } else {
      const element = out.empty(found, prop);
      if (!isLive(prop) || !writeLive(out, element, prop.name, resource, extras, deps)) {
        found.removeChild(element);
        if (wanted.kind === 'prop') out.empty(missing, prop);
      }
    }
  }
  // The found properties, and the asked-for ones that are missing; an allprop of a resource without any
  // property still answers one (empty) 200 propstat.
  const propstats = [
    { prop: found, status: 'HTTP/1.1 200 OK', wanted: found.firstChild !== null || missing.firstChild === null },
    { prop: missing, status: 'HTTP/1.1 404 Not Found', wanted: missing.firstChild !== null },
  ];
  for (const { prop, status } of propstats.filter((propstat) => propstat.wanted)) {
    const propstat = out.dav(response, 'propstat');
    propstat.appendChild(prop);
    out.dav(propstat, 'status', status);
  }
  return out;
}

/** Whether a resource has a live property at all (propname lists only those). */
const isLiveOf = (name: LiveName, resource: DavResource) =>
  !((resource.isFolder && ['getcontentlength', 'getcontenttype', 'getetag'].includes(name)) || (!resource.modified && ['creationdate', 'getlastmodified'].includes(name)));

/** PROPFIND with Depth 0 or 1; `infinity` is refused with 403 propfind-finite-depth (RFC 4918 §9.1). */
export async function propfind(request: DavRequest): Promise<Response> {
  const depth = depthOf(request.raw.headers.get('depth') ?? undefined);
  if (depth === 'infinity') throw new DavError(403, 'propfind-finite-depth');
  const wanted = wantedOf((await xmlBodyOf(request.raw))?.documentElement ?? undefined);
  await checkIf(request);
  const { deps, caller } = request;
  const resource = await resourceAt(deps, caller, request.path);
  if (!resource) throw new DavError(404);
  const resources = depth === '1' && resource.isFolder ? [resource, ...(await membersOf(deps, caller, request.path))] : [resource];
  const dead = wanted.kind === 'prop' && wanted.props.every(isLive) ? new Map<string, DeadProp[]>() : await deadPropsOf(deps, resources.map((r) => r.path.text));
  const wantsLocks = wanted.kind === 'allprop' || (wanted.kind === 'prop' && wanted.props.some((prop) => isLive(prop) && prop.name === 'lockdiscovery'));
  const locks = wantsLocks ? await locksCoveringEach(deps, request.path, resources.map((item) => item.path)) : [];
  const quota = wanted.kind === 'prop' && wanted.props.some(isQuota) ? await quotaOf(request) : undefined;
  const responses = resources.map((item, index) =>
    responseOf(item, wanted, { dead: dead.get(item.path.text) ?? [], locks: locks[index] ?? [], ...(item.isFolder && quota && { quota }) }, deps).fragment(),
  );
  return multistatus(multistatusXml(responses));
}

/** The quota of the storage behind the requested folder (its members share it), when it has one. */
async function quotaOf(request: DavRequest) {
  const target = await resolveTarget(request.deps, request.caller, request.path, 'list');
  if (target.kind === 'virtual') return undefined;
  return (await uploadLimits(request.deps, target.config)).quota;
}

const multistatus = (xml: string) => new Response(xml, { status: 207, headers: { 'Content-Type': 'application/xml; charset=utf-8' } });

/** PROPPATCH: dead properties set and removed in document order, all or nothing; live ones are protected. */
export async function proppatch(request: DavRequest): Promise<Response> {
  const root = (await xmlBodyOf(request.raw))?.documentElement;
  if (!root || !isDav(root, 'propertyupdate')) throw new DavError(400);
  await checkIf(request);
  const resource = await resourceAt(request.deps, request.caller, request.path);
  if (!resource) throw new DavError(404);
  await assertUnlocked(request, request.path);
  const patches: PropPatch[] = [];
  for (const instruction of childElements(root)) {
    const kind = isDav(instruction, 'set') ? 'set' : isDav(instruction, 'remove') ? 'remove' : undefined;
    if (!kind) continue;
    for (const prop of childElements(instruction).filter((child) => isDav(child, 'prop'))) {
      for (const element of childElements(prop)) {
        const name = nameOfElement(element);
        patches.push(kind === 'set' ? { kind, prop: name, xml: serialize(element) } : { kind, prop: name });
      }
    }
  }
  const refused = patches.some((patch) => isLive(patch.prop));
  if (!refused) await patchDeadProps(request.deps, request.path.text, patches);
  const out = new DavDocument('response');
  const response = out.root;
  out.dav(response, 'href', hrefOf(resource.path, resource.isFolder));
  for (const patch of patches) {
    const propstat = out.dav(response, 'propstat');
    out.empty(out.dav(propstat, 'prop'), patch.prop);
    const status = !refused ? '200 OK' : isLive(patch.prop) ? '403 Forbidden' : '424 Failed Dependency';
    out.dav(propstat, 'status', `HTTP/1.1 ${status}`);
    if (refused && isLive(patch.prop)) out.dav(out.dav(propstat, 'error'), 'cannot-modify-protected-property');
  }
  return multistatus(multistatusXml([out.fragment()]));
}
