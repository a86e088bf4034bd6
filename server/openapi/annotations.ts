import type * as v from 'valibot';
import type { Permission } from '../../contract/auth';

/**
 * What a middleware tells the API document about its route. The validators and the auth middlewares carry it on
 * the function itself, so the document reads each route's input schema and access rule from the same objects that
 * enforce them (server/openapi/document.ts walks `app.routes`) and cannot drift from the code.
 */

/** Who may call a route: an admin only, an admin or a key holding one of the permissions, or a key only. */
export type Access = { kind: 'admin' } | { kind: 'permission'; permissions: readonly Permission[] } | { kind: 'apiKey' };

/** The contract schema a validator checks a part of the request with. */
export interface InputSchema {
  target: 'json' | 'query';
  schema: v.GenericSchema;
}

const ACCESS = Symbol('openapi.access');
const INPUT = Symbol('openapi.input');

interface Annotated {
  [ACCESS]?: Access;
  [INPUT]?: InputSchema;
}

export const withAccess = <F extends object>(middleware: F, access: Access): F =>
  Object.assign(middleware, { [ACCESS]: access });

export const withInput = <F extends object>(middleware: F, input: InputSchema): F =>
  Object.assign(middleware, { [INPUT]: input });

export const accessOf = (handler: unknown): Access | undefined => (handler as Annotated)[ACCESS];

export const inputOf = (handler: unknown): InputSchema | undefined => (handler as Annotated)[INPUT];
