import type { Readable } from 'node:stream';
import type { AppDeps } from '../../context';
import type { FsPath } from '../fs/paths';
import type { FsCaller } from '../fs/resolve';
import type { IfList } from './if-header';

/** One WebDAV request as the method handlers see it: who asks, for which path, with which conditions. */
export interface DavRequest {
  deps: AppDeps;
  caller: FsCaller;
  /** `admin:<id>` or `apikey:<id>`: who holds the locks it takes. */
  creator: string;
  path: FsPath;
  raw: Request;
  /** The request's body as a Node stream, read once (server/http.ts `requestBody`); undefined without one. */
  bodyStream: () => Readable | undefined;
  /** This server's origin as clients reach it (for Destination and signed URLs). */
  baseUrl: string;
  /** The parsed `If` header; empty without one. */
  ifLists: IfList[];
  /** Lock tokens the `If` header submits. */
  tokens: Set<string>;
}

export const header = (request: DavRequest, name: string) => request.raw.headers.get(name) ?? undefined;
