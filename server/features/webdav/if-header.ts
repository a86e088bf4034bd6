import { bareEtag } from '../../storage/driver';
import { DavError } from './errors';

/** One condition of an `If` list: a state token (`<opaquelocktoken:…>`) or an entity tag, possibly negated. */
export interface IfCondition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}

/** A list of conditions that must all hold, for the request's resource or the tagged one. */
export interface IfList {
  /** The Resource-Tag (a URL) of a tagged list; undefined for the request's resource. */
  resource?: string;
  conditions: IfCondition[];
}

/**
 * RFC 4918 §10.4: `If: (<token> ["etag"]) (Not <DAV:no-lock>)` or tagged, `<http://host/a> (<token>)`.
 * A header that does not parse is a 400 (§10.4.1 leaves no other reading of it).
 */
export function parseIf(header: string): IfList[] {
  const lists: IfList[] = [];
  let resource: string | undefined;
  let at = 0;
  const skipSpace = () => {
    while (at < header.length && /\s/.test(header[at] ?? '')) at += 1;
  };
  const until = (end: string) => {
    const close = header.indexOf(end, at + 1);
    if (close < 0) throw new DavError(400);
    const value = header.slice(at + 1, close);
    at = close + 1;
    return value;
  };
  for (skipSpace(); at < header.length; skipSpace()) {
    const char = header[at];
    if (char === '<') {
      resource = until('>');
      continue;
    }
    if (char !== '(') throw new DavError(400);
    at += 1;
    const conditions: IfCondition[] = [];
    for (skipSpace(); header[at] !== ')'; skipSpace()) {
      if (at >= header.length) throw new DavError(400);
      let not = false;
      if (header.slice(at, at + 3).toLowerCase() === 'not') {
        not = true;
        at += 3;
        skipSpace();
      }
      if (header[at] === '<') conditions.push({ not, kind: 'token', value: until('>') });
      else if (header[at] === '[') conditions.push({ not, kind: 'etag', value: until(']') });
      else throw new DavError(400);
    }
    at += 1;
    if (conditions.length === 0) throw new DavError(400);
    lists.push({ resource, conditions });
  }
  if (lists.length === 0) throw new DavError(400);
  return lists;
}

/** What a list's conditions are checked against: the resource's current ETag and the tokens of its locks. */
export interface ConditionState {
  etag: string | null;
  lockTokens: Set<string>;
}

/** The header holds when any of its lists holds; a list holds when each of its conditions does. */
export async function ifHolds(lists: IfList[], stateOf: (resource: string | undefined) => Promise<ConditionState | undefined>): Promise<boolean> {
  for (const list of lists) {
    const state = await stateOf(list.resource);
    const holds = list.conditions.every((condition) => {
      const matches =
        condition.kind === 'token'
          ? state !== undefined && state.lockTokens.has(condition.value)
          : state?.etag != null && bareEtag(condition.value) === state.etag;
      return matches !== condition.not;
    });
    if (holds) return true;
  }
  return false;
}

/** The lock tokens a request submits: every state token its `If` header names. */
export const submittedTokens = (lists: IfList[]): Set<string> =>
  new Set(lists.flatMap((list) => list.conditions.filter((condition) => condition.kind === 'token').map((condition) => condition.value)));
