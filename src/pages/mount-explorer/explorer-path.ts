/** Where the explorer lives; the rest of the URL is the folder shown (`/mount-explorer/local/photos`). */
export const EXPLORER_ROOT = '/mount-explorer';

/** The folder a URL path names, ending in `/`: each segment decoded once. */
export function folderOfLocation(pathname: string): string {
  const rest = pathname.startsWith(EXPLORER_ROOT) ? pathname.slice(EXPLORER_ROOT.length) : '';
  const segments = rest.split('/').filter(Boolean).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  return segments.length ? `/${segments.join('/')}/` : '/';
}

/** The explorer's URL for a folder, with the file to preview when one is open. */
export function explorerHref(folder: string, preview?: string): string {
  const segments = folder.split('/').filter(Boolean).map(encodeURIComponent);
  const base = segments.length ? `${EXPLORER_ROOT}/${segments.join('/')}` : EXPLORER_ROOT;
  return preview ? `${base}?${new URLSearchParams({ preview })}` : base;
}

/** The last segment of a path, without the folder's trailing `/`. */
export const nameOf = (path: string) => path.replace(/\/$/, '').split('/').pop() ?? '';

/** The folder holding a path, ending in `/` (the root's parent is the root). */
export function parentOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  return segments.length > 1 ? `/${segments.slice(0, -1).join('/')}/` : '/';
}

/** The folders from the root down to `folder`, for the breadcrumb. */
export function crumbsOf(folder: string): { name: string; path: string }[] {
  const segments = folder.split('/').filter(Boolean);
  return segments.map((name, index) => ({ name, path: `/${segments.slice(0, index + 1).join('/')}/` }));
}

/** Why a name cannot be a file or folder name, or undefined when it can. */
export function nameProblem(name: string): 'required' | 'invalid' | 'too_long' | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  if (trimmed === '.' || trimmed === '..' || /[/\\\0]/.test(trimmed)) return 'invalid';
  if (new TextEncoder().encode(trimmed).length > 255) return 'too_long';
  return undefined;
}
