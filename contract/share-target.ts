/**
 * The web app manifest's share target (vite.config.ts): the operating system's share sheet POSTs a multipart form
 * here. The service worker (src/sw.ts) answers it; the server answers it only when no service worker controls the
 * page yet, with a redirect to `/?share-target=unavailable` (server/static/spa.ts).
 */
export const SHARE_TARGET_PATH = '/share-target';

/** The form fields the manifest names, as the share sheet fills them. */
export const SHARE_TARGET_FIELDS = { title: 'title', text: 'text', url: 'url', files: 'files' } as const;

/** The query parameter that carries a shared entry's id to the page that takes it (`/?shared=…`, `/upload?shared=…`). */
export const SHARED_PARAM = 'shared';

/** The query parameter of the page a share lands on when no service worker could take it. */
export const SHARE_TARGET_UNAVAILABLE_PARAM = 'share-target';

/** That page: the editor, which then asks to share again. */
export const SHARE_TARGET_UNAVAILABLE_PAGE = `/?${SHARE_TARGET_UNAVAILABLE_PARAM}=unavailable`;
