/** The query parameter of the login page (`/admin`) that names where to go back to once signed in. */
const NEXT_PARAM = 'next';

/** The login page, told to come back to `returnTo` (a path of this app, with its query) once signed in. */
export const loginHref = (returnTo: string) => `/admin?${new URLSearchParams({ [NEXT_PARAM]: returnTo }).toString()}`;

/**
 * Where the login page was told to go back to, from its query string; only a path of this app, so that a crafted
 * link cannot send a person elsewhere after signing in (`//host` and `/\host` are other sites to a browser).
 */
export function returnPath(search: string): string | undefined {
  const next = new URLSearchParams(search).get(NEXT_PARAM);
  if (!next || !next.startsWith('/') || /^\/[/\\]/.test(next)) return undefined;
  return next;
}
