import { userContentName } from '../../../contract/user-content';

/**
 * Untrusted HTML (rendered Markdown) made safe to show: only the elements and attributes of POLICY, no scripts, no
 * event handlers, no `javascript:` URLs, no ids or names that shadow the page's globals, links that open in a new
 * tab without `window.opener`.
 *
 * The browser's own sanitizer (`Element.setHTML`, Chromium 146+, Firefox 148+) does it where there is one, and
 * DOMPurify, loaded only then, where there is not: a share's first load does not carry 10 KB of sanitizer that
 * its browser already has. Both are configured from POLICY, and what they give goes through the same last pass
 * (finish). Both give nodes, not a string, so that what was checked is what is shown: no second parse of
 * serialised HTML, where mutation XSS lives. tests/e2e/pastes.e2e.ts holds both to one corpus, and to each other.
 */

/**
 * What a paste may hold: GitHub's set, about. Every other element is dropped with all it holds (scripts, styles,
 * frames, forms, SVG, MathML, templates, unknown elements), but for those `unwrapped`, whose text stays.
 */
const POLICY = {
  /** The elements kept, each with the attributes it may carry besides `attributes`. */
  elements: {
    a: ['href'],
    abbr: [],
    b: [],
    bdi: [],
    bdo: [],
    blockquote: [],
    br: [],
    caption: [],
    cite: [],
    code: ['class'], // `language-js` of a fenced block, for its colours (finish keeps no other class)
    col: ['span'],
    colgroup: ['span'],
    dd: [],
    del: [],
    details: ['open'],
    dfn: [],
    div: [],
    dl: [],
    dt: [],
    em: [],
    figcaption: [],
    figure: [],
    h1: [],
    h2: [],
    h3: [],
    h4: [],
    h5: [],
    h6: [],
    hr: [],
    i: [],
    img: ['src', 'alt', 'width', 'height'],
    input: ['type', 'checked', 'disabled'], // a task list's checkbox (finish keeps no other input)
    ins: [],
    kbd: [],
    li: ['value'],
    mark: [],
    ol: ['start', 'reversed', 'type'],
    p: [],
    pre: [],
    q: [],
    rp: [],
    rt: [],
    ruby: [],
    s: [],
    samp: [],
    small: [],
    span: [],
    strike: [],
    strong: [],
    sub: [],
    summary: [],
    sup: [],
    table: [],
    tbody: [],
    td: ['align', 'colspan', 'rowspan'],
    tfoot: [],
    th: ['align', 'colspan', 'rowspan', 'scope'],
    thead: [],
    time: ['datetime'],
    tr: [],
    tt: [],
    u: [],
    ul: [],
    var: [],
    wbr: [],
  } satisfies Record<string, string[]>,
  /** Attributes any kept element may carry. `id` and `name` are prefixed (contract/user-content.ts). */
  attributes: ['id', 'name', 'title', 'lang', 'dir'],
  /** Elements dropped whose text stays: presentation and page structure, where the words are the paste's. */
  unwrapped: ['marquee', 'blink', 'center', 'font', 'big', 'nobr', 'article', 'section', 'header', 'footer', 'aside', 'nav', 'main', 'address', 'hgroup', 'label'],
};

type ElementName = keyof typeof POLICY.elements;
const isKept = (name: string): name is ElementName => Object.hasOwn(POLICY.elements, name);
const isUnwrapped = (name: string) => POLICY.unwrapped.includes(name);
const mayCarry = (element: string, attribute: string) =>
  POLICY.attributes.includes(attribute) || (isKept(element) && (POLICY.elements[element] as string[]).includes(attribute));

/**
 * Where a link or an image may point: the web, mail, a phone, a path of this site or a place in the paste (DOMPurify's
 * rule, with fewer schemes); an image may also be a `data:image/…` URL. Whitespace and control characters are left
 * out before the test, as a browser leaves them out of a URL.
 */
const SAFE_URL = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
const IMAGE_DATA_URL = /^data:image\//i;
// eslint-disable-next-line no-control-regex
const URL_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

/** End a checkbox's name: a task's nested list (or any block) is not part of it, nor is the next checkbox's. */
const NAME_ENDS = new Set(['input', 'br', 'ul', 'ol', 'p', 'div', 'pre', 'blockquote', 'table', 'dl', 'details', 'figure', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A checkbox of a rendered paste: read-only, named by its item's text (axe: a form field has a label). */
function finishCheckbox(box: Element) {
  box.setAttribute('disabled', '');
  let text = '';
  for (let node = box.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType === Node.ELEMENT_NODE && NAME_ENDS.has((node as Element).localName)) break;
    text += node.textContent ?? '';
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text) box.setAttribute('aria-label', text);
  // A box with no words beside it (a cell of a table, as a rule) says its state as a character instead.
  else box.replaceWith(box.ownerDocument.createTextNode(box.hasAttribute('checked') ? '☑' : '☐'));
}

/**
 * The last pass, the same after either sanitizer: what their configurations cannot say. Ids and names prefixed,
 * URLs held to SAFE_URL, no class but a code block's language, no input but a read-only, named checkbox, links that
 * leave the paste opened apart (a link to `#x` stays: MarkdownView takes it to `user-content-x`).
 */
function finish(fragment: DocumentFragment): DocumentFragment {
  for (const element of fragment.querySelectorAll('[id], [name]')) {
    for (const attribute of ['id', 'name']) {
      const value = element.getAttribute(attribute);
      if (value !== null) element.setAttribute(attribute, userContentName(value));
    }
  }
  for (const element of fragment.querySelectorAll('[href], [src]')) {
    for (const attribute of ['href', 'src']) {
      const value = element.getAttribute(attribute)?.replace(URL_WHITESPACE, '');
      if (value === undefined || SAFE_URL.test(value) || (attribute === 'src' && element.localName === 'img' && IMAGE_DATA_URL.test(value))) continue;
      element.removeAttribute(attribute);
    }
  }
  for (const element of fragment.querySelectorAll('[class]')) {
    const languages = [...element.classList].filter((name) => element.localName === 'code' && name.startsWith('language-'));
    if (languages.length > 0) element.setAttribute('class', languages.join(' '));
    else element.removeAttribute('class');
  }
  for (const input of fragment.querySelectorAll('input')) {
    if (input.getAttribute('type')?.toLowerCase() === 'checkbox') finishCheckbox(input);
    else input.remove();
  }
  for (const link of fragment.querySelectorAll('a[href]')) {
    if (link.getAttribute('href')?.startsWith('#')) continue;
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  return fragment;
}

/** Sanitised nodes of this document, in a fragment: insert a clone, keep the original for the next rendering. */
export type Sanitize = (html: string) => DocumentFragment;

/** The part of the HTML Sanitizer API used here (TypeScript's DOM library does not have it yet). */
interface SanitizerElement {
  name: string;
  namespace: string;
  attributes?: string[];
}
interface SanitizerConfig {
  elements: SanitizerElement[];
  replaceWithChildrenElements: SanitizerElement[];
  attributes: string[];
  comments: boolean;
  dataAttributes: boolean;
}
type SetHtml = (this: Element, html: string, options: { sanitizer: SanitizerConfig }) => void;

const HTML = 'http://www.w3.org/1999/xhtml';

/** The browser's sanitizer, or undefined where it does not take this configuration (an earlier draft of the API). */
function browserSanitizer(setHtml: SetHtml): Sanitize | undefined {
  const sanitizer: SanitizerConfig = {
    elements: Object.entries(POLICY.elements).map(([name, attributes]) => ({ name, namespace: HTML, attributes })),
    replaceWithChildrenElements: POLICY.unwrapped.map((name) => ({ name, namespace: HTML })),
    attributes: POLICY.attributes,
    comments: false,
    dataAttributes: false,
  };
  try {
    setHtml.call(document.createElement('div'), '', { sanitizer });
  } catch {
    return undefined;
  }
  return (html) => {
    const container = document.createElement('div');
    // setHTML, not setHTMLUnsafe: whatever the configuration says, it never keeps script-running markup.
    setHtml.call(container, html, { sanitizer });
    const fragment = document.createDocumentFragment();
    fragment.append(...container.childNodes);
    return finish(fragment);
  };
}

async function domPurifySanitizer(): Promise<Sanitize> {
  const { default: DOMPurify } = await import('dompurify');
  const purify = DOMPurify(window);
  // What the browser's sanitizer is told by its configuration and DOMPurify cannot be: an element outside POLICY
  // goes with all it holds (DOMPurify would keep its text), an attribute is kept only on the elements POLICY says.
  purify.addHook('uponSanitizeElement', (node, { tagName }) => {
    if (node.nodeType === Node.ELEMENT_NODE && tagName !== 'body' && !isKept(tagName) && !isUnwrapped(tagName)) (node as Element).replaceChildren();
  });
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    if (!mayCarry(node.nodeName.toLowerCase(), data.attrName)) data.keepAttr = false;
    // Prefixed before DOMPurify's own check of ids and names (SANITIZE_DOM), as finish would after it.
    else if (data.attrName === 'id' || data.attrName === 'name') data.attrValue = userContentName(data.attrValue);
  });
  const config = {
    ALLOWED_TAGS: Object.keys(POLICY.elements),
    ALLOWED_ATTR: [...new Set([...POLICY.attributes, ...Object.values(POLICY.elements).flat()])],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true, // of the `unwrapped`: the hook above empties the others first
    RETURN_DOM_FRAGMENT: true as const,
  };
  return (html) => finish(purify.sanitize(html, config));
}

let sanitizer: Sanitize | undefined;
let loading: Promise<Sanitize> | undefined;

/** The browser's sanitizer at once, DOMPurify once loaded (a failed load is tried again on the next call). */
export function loadSanitizer(): Promise<Sanitize> {
  if (sanitizer) return Promise.resolve(sanitizer);
  const setHtml = (Element.prototype as { setHTML?: SetHtml }).setHTML;
  sanitizer = setHtml && browserSanitizer(setHtml);
  if (sanitizer) return Promise.resolve(sanitizer);
  loading ??= domPurifySanitizer().then(
    (loaded) => (sanitizer = loaded),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
