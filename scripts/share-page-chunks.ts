import { resolve } from 'node:path';
import type { ChunkingContext, CodeSplittingGroup } from 'rolldown';
import type { Plugin } from 'vite';

/** The pages visitors open from a link, by the chunk that holds what only that page uses. */
const SHARE_PAGES = {
  'paste-view': 'src/pages/paste-view/PasteViewPage.tsx',
  'file-view': 'src/pages/file-view/FileViewPage.tsx',
};
/** What the share pages use that other chunks use too. */
const SHARED = 'share-view';
/**
 * Of the modules other chunks use too, those only the file page uses (its previews, the file API): kept out of
 * SHARED, so that a paste's first load, the lighter and more frequent one, does not carry them.
 */
const SHARED_BY_FILE_PAGE = 'file-shared';
/** lucide-react's index: it imports every icon, so walking through it from a share page would claim them all. */
const ICON_INDEX = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;

/**
 * Code-splitting groups that load a share page's code (its own, its components, icons and API modules) in two or
 * three chunks instead of a dozen small ones split by which other pages share them: on a cold load each request
 * costs its headers and a modulepreload link, and small files compress badly. What only the paste page uses goes to
 * `paste-view`, what only the file page uses to `file-view`, the rest of what they use to `share-view`, which other
 * pages load too for the few modules they share with them; what only the file page shares with other pages goes to
 * `file-shared` (SHARED_BY_FILE_PAGE). The entry's static graph stays in the entry, and what other groups claim
 * (React, Markdown) stays in theirs.
 *
 * Share pages import icons one by one (`lucide-react/icons/…`): that is how their icons are found.
 */
export function sharePageChunks(root: string): { plugin: Plugin; groups: CodeSplittingGroup[] } {
  const sharePages = Object.entries(SHARE_PAGES).map(([chunk, page]) => [chunk, resolve(root, page)] as const);
  /** Modules of the entry's static graph, as rolldown tags them after tree-shaking. */
  const initial = new Set<string>();
  let chunkOf: Map<string, string> | undefined;

  /** Every module `roots` import statically, transitively (the roots too), outside the entry and `stop`. */
  const staticGraph = (roots: Iterable<string>, context: ChunkingContext, stop?: RegExp) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id) || initial.has(id) || stop?.test(id)) return;
      seen.add(id);
      context.getModuleInfo(id)?.importedIds.forEach(visit);
    };
    for (const root of roots) visit(root);
    return seen;
  };

  /** The modules other lazily loaded chunks use (through lucide's index too: every icon counts as used). */
  const usedElsewhere = (context: ChunkingContext) => {
    const lazyRoots = new Set<string>();
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const info = context.getModuleInfo(id);
      info?.importedIds.forEach(visit);
      info?.dynamicallyImportedIds.forEach((lazy) => {
        lazyRoots.add(lazy);
        visit(lazy);
      });
    };
    visit(resolve(root, 'index.html'));
    sharePages.forEach(([, page]) => lazyRoots.delete(page));
    return staticGraph(lazyRoots, context);
  };

  const chunkFor = (id: string, context: ChunkingContext) => {
    if (!chunkOf) {
      const elsewhere = usedElsewhere(context);
      const pagesUsing = new Map<string, string[]>();
      for (const [chunk, page] of sharePages) {
        for (const module of staticGraph([page], context, ICON_INDEX)) pagesUsing.set(module, [...(pagesUsing.get(module) ?? []), chunk]);
      }
      chunkOf = new Map();
      for (const [module, [page, ...others]] of pagesUsing) {
        if (others.length > 0) chunkOf.set(module, SHARED);
        else if (!elsewhere.has(module)) chunkOf.set(module, page as string);
        else chunkOf.set(module, page === 'file-view' ? SHARED_BY_FILE_PAGE : SHARED);
      }
    }
    return chunkOf.get(id) ?? null;
  };

  return {
    plugin: {
      name: 'clipstash:share-page-chunks',
      apply: 'build',
      buildStart() {
        initial.clear();
        chunkOf = undefined;
      },
    },
    groups: [
      // Claims nothing: notes the entry's modules before the group below runs (highest priority).
      {
        name: (id) => {
          initial.add(id);
          return null;
        },
        tags: ['$initial'],
        priority: Number.MAX_SAFE_INTEGER,
      },
      // Only the modules it names: what they import is in the entry or in other groups' chunks.
      { name: chunkFor, includeDependenciesRecursively: false },
    ],
  };
}
