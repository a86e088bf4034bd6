import type { AppDeps } from '../../context';
import { inTree, movedPath } from './tree-sql';
import { propKey, type PropName } from './xml';

/** A dead property as stored: its name and the whole property element as XML. */
export interface DeadProp extends PropName {
  xml: string;
}

export type PropPatch = { kind: 'set'; prop: PropName; xml: string } | { kind: 'remove'; prop: PropName };

/** Parameters per query: far below SQLite's and PostgreSQL's limits. */
const CHUNK = 500;

/** The dead properties of each path (a folder's members at once for PROPFIND Depth 1). */
export async function deadPropsOf(deps: AppDeps, paths: string[]): Promise<Map<string, DeadProp[]>> {
  const found = new Map<string, DeadProp[]>();
  for (let start = 0; start < paths.length; start += CHUNK) {
    const rows = await deps.db
      .selectFrom('dav_properties')
      .select(['path', 'namespace', 'name', 'xml'])
      .where('path', 'in', paths.slice(start, start + CHUNK))
      .orderBy('path')
      .orderBy('namespace')
      .orderBy('name')
      .execute();
    for (const row of rows) found.set(row.path, [...(found.get(row.path) ?? []), row]);
  }
  return found;
}

/** PROPPATCH's instructions in document order, all or nothing. */
export async function patchDeadProps(deps: AppDeps, path: string, patches: PropPatch[]): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    for (const patch of patches) {
      const { namespace, name } = patch.prop;
      await trx.deleteFrom('dav_properties').where('path', '=', path).where('namespace', '=', namespace).where('name', '=', name).execute();
      if (patch.kind === 'set') await trx.insertInto('dav_properties').values({ path, namespace, name, xml: patch.xml }).execute();
    }
  });
}

/** The properties of a tree go with it (MOVE) or are given to its copy (COPY); a replaced target's are dropped. */
export async function carryDeadProps(deps: AppDeps, from: string, to: string, mode: 'copy' | 'move'): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('dav_properties').where(inTree(to)).execute();
    const rows = await trx.selectFrom('dav_properties').selectAll().where(inTree(from)).execute();
    if (mode === 'move') await trx.deleteFrom('dav_properties').where(inTree(from)).execute();
    for (let start = 0; start < rows.length; start += CHUNK) {
      const values = rows.slice(start, start + CHUNK).map((row) => ({ ...row, path: movedPath(row.path, from, to) }));
      await trx.insertInto('dav_properties').values(values).execute();
    }
  });
}

export async function dropDeadProps(deps: AppDeps, path: string): Promise<void> {
  await deps.db.deleteFrom('dav_properties').where(inTree(path)).execute();
}

/** Keyed by expanded name, for lookups. */
export const byPropKey = (props: DeadProp[]) => new Map(props.map((prop) => [propKey(prop), prop]));
