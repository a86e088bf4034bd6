/**
 * Untrusted HTML (rendered Markdown) made safe to show: no scripts, no event handlers, no `javascript:` URLs, no
 * SVG or MathML, no frames, forms or styles, links that open in a new tab without `window.opener`.
 *
 * The browser's own sanitizer (`Element.setHTML`, Chromium 146+, Firefox 148+) does it where there is one, and
 * DOMPurify, loaded only then, where there is not: a share's first load does not carry 10 KB of sanitizer that
 * its browser already has. Both give nodes, not a string, so that what was checked is what is shown: no second
 * parse of serialised HTML, where mutation XSS lives.
 */

/** Elements removed with everything inside them. */
const REMOVED_ELEMENTS = ['script', 'style', 'iframe', 'frame', 'object', 'embed', 'form', 'base', 'link', 'meta', 'noscript', 'template'];
const REMOVED_ATTRIBUTES = ['style', 'srcset', 'formaction'];
const SVG = 'http://www.w3.org/2000/svg';
const MATHML = 'http://www.w3.org/1998/Math/MathML';

/** The part of the HTML Sanitizer API used here (TypeScript's DOM library does not have it yet). */
interface SanitizerConfig {
  removeElements: (string | { name: string; namespace: string })[];
  removeAttributes: string[];
  comments: boolean;
}
type SetHtml = (this: Element, html: string, options: { sanitizer: SanitizerConfig }) => void;

/** Sanitised nodes of this document, in a fragment: insert a clone, keep the original for the next rendering. */
export type Sanitize = (html: string) => DocumentFragment;

/** Links leave the app in a new tab and cannot reach back through window.opener. */
function openLinksApart(fragment: DocumentFragment): DocumentFragment {
  for (const link of fragment.querySelectorAll('a[href]')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  return fragment;
}

function browserSanitizer(setHtml: SetHtml): Sanitize {
  const sanitizer: SanitizerConfig = {
    removeElements: [...REMOVED_ELEMENTS, { name: 'svg', namespace: SVG }, { name: 'math', namespace: MATHML }],
    removeAttributes: REMOVED_ATTRIBUTES,
    comments: false,
  };
  return (html) => {
    const container = document.createElement('div');
    // setHTML, not setHTMLUnsafe: whatever the configuration says, it never keeps script-running markup.
    setHtml.call(container, html, { sanitizer });
    const fragment = document.createDocumentFragment();
    fragment.append(...container.childNodes);
    return openLinksApart(fragment);
  };
}

async function domPurifySanitizer(): Promise<Sanitize> {
  const { default: DOMPurify } = await import('dompurify');
  return (html) =>
    openLinksApart(
      DOMPurify.sanitize(html, {
        USE_PROFILES: { html: true }, // no SVG, no MathML
        FORBID_TAGS: REMOVED_ELEMENTS,
        FORBID_ATTR: REMOVED_ATTRIBUTES,
        RETURN_DOM_FRAGMENT: true,
      }),
    );
}

let sanitizer: Sanitize | undefined;
let loading: Promise<Sanitize> | undefined;

/** The browser's sanitizer at once, DOMPurify once loaded (a failed load is tried again on the next call). */
export function loadSanitizer(): Promise<Sanitize> {
  if (sanitizer) return Promise.resolve(sanitizer);
  const setHtml = (Element.prototype as { setHTML?: SetHtml }).setHTML;
  if (setHtml) return Promise.resolve((sanitizer = browserSanitizer(setHtml)));
  loading ??= domPurifySanitizer().then(
    (loaded) => (sanitizer = loaded),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
