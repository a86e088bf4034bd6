import { DOMImplementation, DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { DavError } from './errors';

/** Every body this server reads or writes goes through a namespace-aware XML library; names are never pasted in. */
export const DAV_NS = 'DAV:';

/** A property by its expanded name: namespace URI ('' for none) and local name. */
export interface PropName {
  namespace: string;
  name: string;
}

export const propKey = (prop: PropName) => `${prop.namespace}\u0000${prop.name}`;

/** Parses a request body; malformed XML (or a namespace declared empty with a prefix) is a 400. */
export function parseXml(text: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new DavError(400, undefined, message);
    },
  });
  let document: Document;
  try {
    document = parser.parseFromString(text, 'application/xml');
  } catch (error) {
    if (error instanceof DavError) throw error;
    throw new DavError(400);
  }
  if (!document.documentElement) throw new DavError(400);
  assertNamespaceDeclarations(document.documentElement);
  return document;
}

/** `xmlns:p=""` is not allowed by Namespaces in XML 1.0 (only the default namespace may be undeclared). */
function assertNamespaceDeclarations(element: Element): void {
  for (let i = 0; i < element.attributes.length; i += 1) {
    const attribute = element.attributes.item(i);
    if (attribute?.name.startsWith('xmlns:') && attribute.value === '') throw new DavError(400);
  }
  for (const child of childElements(element)) assertNamespaceDeclarations(child);
}

export const childElements = (node: Node): Element[] => {
  const found: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === child.ELEMENT_NODE) found.push(child as Element);
  return found;
};

export const isDav = (element: Element, name: string) => element.namespaceURI === DAV_NS && element.localName === name;

export const nameOfElement = (element: Element): PropName => ({ namespace: element.namespaceURI ?? '', name: element.localName ?? element.nodeName });

export const serialize = (node: Node) => new XMLSerializer().serializeToString(node);

/** A document to answer with: `D:` is the DAV: prefix throughout. */
export class DavDocument {
  readonly document: Document;
  constructor(rootName: string) {
    this.document = new DOMImplementation().createDocument(DAV_NS, `D:${rootName}`, null);
  }

  get root(): Element {
    return this.document.documentElement as Element;
  }

  /** A DAV: element, optionally with text, appended to `parent`. */
  dav(parent: Element, name: string, text?: string): Element {
    const element = this.document.createElementNS(DAV_NS, `D:${name}`);
    if (text !== undefined) element.appendChild(this.document.createTextNode(text));
    parent.appendChild(element);
    return element;
  }

  /** An empty element of any namespace (an unknown or a named property). */
  empty(parent: Element, prop: PropName): Element {
    const element =
      prop.namespace === DAV_NS
        ? this.document.createElementNS(DAV_NS, `D:${prop.name}`)
        : this.document.createElementNS(prop.namespace === '' ? null : prop.namespace, prop.namespace === '' ? prop.name : `x:${prop.name}`);
    parent.appendChild(element);
    return element;
  }

  /** Markup stored as XML (a dead property, a lock's owner), copied into this document. */
  imported(parent: Element, xml: string): void {
    const source = new DOMParser().parseFromString(xml, 'application/xml').documentElement;
    if (source) parent.appendChild(this.document.importNode(source, true));
  }

  toString(): string {
    return `<?xml version="1.0" encoding="utf-8"?>\n${serialize(this.document)}`;
  }

  /** The root element alone, as markup to go inside another document's (multistatusXml). */
  fragment(): string {
    return serialize(this.root);
  }
}

/**
 * A `D:multistatus` of responses each built and serialized on its own (`new DavDocument('response').fragment()`):
 * a folder of thousands of members never becomes one big DOM, and each small one is garbage at once. The wrapper
 * holds no names; only the library-written responses do.
 */
export const multistatusXml = (responses: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`;

/** RFC 4918 §8.7 `DAV:error` body with one precondition element. */
export function errorBody(condition: string): string {
  const body = new DavDocument('error');
  body.dav(body.root, condition);
  return body.toString();
}
