import type * as v from 'valibot';
import { envelopeSchema } from '../../contract/envelope';
import { accessOf, inputOf, type Access, type InputSchema } from './annotations';
import type { ErrorStatus, HeadDoc, HeaderDocs, RouteDoc } from './catalog/types';
import { requestSchema, responseSchema, type JsonSchema } from './json-schema';
import { WILDCARD, type ApiEndpoint } from './routes';

type Json = Record<string, unknown>;

/** `components.responses` names of the failures, each the error envelope. */
export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; empty?: true }> = {
  400: { name: 'BadRequest', description: 'Invalid input: `data.field` and `data.issue` name the problem.' },
  401: { name: 'Unauthorized', description: 'No, wrong or expired credentials (or a wrong share password).' },
  403: { name: 'Forbidden', description: 'Authenticated but not allowed (an API key on an admin route, a missing permission, outside the key\'s base path).' },
  404: { name: 'NotFound', description: 'Not found.' },
  409: { name: 'Conflict', description: 'Taken (slug, name, path) or in use.' },
  410: { name: 'Gone', description: 'Expired, or its views are used up.' },
  413: { name: 'TooLarge', description: 'Over the max upload size or the storage quota: `data` has the sizes.' },
  415: { name: 'UnsupportedType', description: 'No thumbnail can be made of this type here (or the tool it needs is not installed).' },
  416: { name: 'RangeNotSatisfiable', description: 'The `Range` asked for lies outside the object (no body).', empty: true },
  422: { name: 'Unreadable', description: 'The file could not be decoded (corrupt, hostile, or too slow to decode).' },
  429: { name: 'RateLimited', description: 'Too many attempts: `data.retryAfterMinutes`.' },
  503: { name: 'Unavailable', description: 'Not ready: `data.checks` says which check failed, `data.draining` whether the server is stopping.' },
};

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Done, with some failures (see `data`)', 204: 'No content' };

const PATH_PARAMS: Record<string, string> = {
  id: 'The record\'s id.',
  slug: 'The share\'s link suffix.',
  configId: 'The storage configuration\'s id.',
  file: 'The file\'s name.',
  [WILDCARD]: 'The rest of the path (it may hold `/`).',
};

function accessText(access: Access | undefined): string {
  if (!access) return 'No `Authorization` header needed.';
  if (access.kind === 'admin') return 'Admin only (bearer token); API keys get 403.';
  if (access.kind === 'apiKey') return 'API keys only.';
  return `Admin, or an API key with the ${access.permissions.map((permission) => `\`${permission}\``).join(' or ')} permission.`;
}

function security(access: Access | undefined): Json[] | undefined {
  if (!access) return undefined;
  if (access.kind === 'admin') return [{ Bearer: [] }];
  if (access.kind === 'apiKey') return [{ ApiKey: [] }];
  return [{ Bearer: [] }, { ApiKey: [] }];
}

/** An object schema's properties as OpenAPI parameters (a query string, a path). */
function parameters(schema: JsonSchema, where: 'query' | 'path'): Json[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = typeof property === 'object' ? property : {};
    return { name, in: where, required: required.has(name), ...(description && { description }), schema: rest };
  });
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMS[name] ?? name,
    schema: { type: 'string' },
  }));
}

const BINARY = { type: 'string', contentMediaType: 'application/octet-stream' };

function requestBody(json: InputSchema | undefined, doc: RouteDoc): Json | undefined {
  if (json) return { required: true, content: { 'application/json': { schema: requestSchema(json.schema) } } };
  if (doc.form) {
    const fields = requestSchema(doc.form.fields);
    const schema = {
      ...fields,
      properties: { [doc.form.file]: { ...BINARY, description: 'The file.' }, ...fields.properties },
      required: [doc.form.file, ...(fields.required ?? [])],
    };
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  if (doc.binaryBody) return { required: true, description: doc.binaryBody, content: { 'application/octet-stream': { schema: BINARY } } };
  return undefined;
}

const headerObjects = (headers: HeaderDocs): Json =>
  Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));

function successResponses(doc: RouteDoc, where: string): Json {
  const described = doc.headers && headerObjects(doc.headers);
  if (doc.raw) {
    return Object.fromEntries(
      doc.raw.map((answer) => [
        String(answer.status),
        {
          description: answer.description,
          ...((answer.headers || described) && {
            headers: {
              ...Object.fromEntries((answer.headers ?? []).map((name) => [name, { schema: { type: 'string' } }])),
              ...described,
            },
          }),
          ...(answer.contentType && {
            content: {
              [answer.contentType]: {
                schema: answer.contentType === 'application/json' ? { type: 'object' } : { type: 'string', contentMediaType: answer.contentType },
              },
            },
          }),
        },
      ]),
    );
  }
  if (!doc.data) throw new Error(`${where}: give the answer's data schema or its raw answers`);
  const schema = responseSchema(envelopeSchema(doc.data));
  return Object.fromEntries(
    (doc.ok ?? [200]).map((status) => [
      String(status),
      {
        description: SUCCESS_TEXT[status] ?? 'OK',
        ...(described && { headers: described }),
        content: { 'application/json': { schema } },
      },
    ]),
  );
}

function errorResponses(statuses: ReadonlySet<ErrorStatus>, plain: boolean): Json {
  return Object.fromEntries(
    [...statuses]
      .sort((a, b) => a - b)
      .map((status) => [
        String(status),
        plain
          ? { description: ERROR_RESPONSES[status].description, content: { 'text/plain': { schema: { type: 'string' } } } }
          : { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` },
      ]),
  );
}

/** `getAdminPastesById` from `GET /api/admin/pastes/{id}`: stable, unique, readable in links of the page. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/-]/)
    .filter(Boolean)
    .map((word) => {
      const param = /^\{(\w+)\}$/.exec(word)?.[1];
      const text = param ? `by-${param}` : word.replace(/\W/g, '');
      return text.replace(/(^|-)(\w)/g, (_m, _dash: string, letter: string) => letter.toUpperCase());
    });
  return `${method.toLowerCase()}${words.join('')}`;
}

/** What one route's middlewares and catalog entry say about its access, input and failures. */
function routeFacts(endpoint: ApiEndpoint, doc: RouteDoc) {
  const access = endpoint.handlers.map(accessOf).find((found) => found !== undefined);
  const inputs = endpoint.handlers.map(inputOf).filter((found) => found !== undefined);
  const json = inputs.find((input) => input.target === 'json');
  const query = inputs.find((input) => input.target === 'query');

  const errors = new Set<ErrorStatus>(doc.errors);
  if (json || query || doc.form) errors.add(400);
  if (access) errors.add(401);
  if (access && access.kind !== 'apiKey') errors.add(403);

  const queryParameters = [query?.schema, doc.query]
    .filter((schema): schema is v.GenericSchema => schema !== undefined)
    .flatMap((schema) => parameters(requestSchema(schema), 'query'));
  return { access, json, errors, queryParameters };
}

/** One OpenAPI operation: the catalog's words, the middlewares' input schemas and access rule. */
export function buildOperation(endpoint: ApiEndpoint, path: string, doc: RouteDoc): Json {
  const { access, json, errors, queryParameters } = routeFacts(endpoint, doc);
  const body = requestBody(json, doc);
  const auth = security(access);
  return {
    operationId: operationId(endpoint.method, path),
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, accessText(access)].filter(Boolean).join('\n\n'),
    parameters: [...pathParameters(path), ...queryParameters],
    ...(body && { requestBody: body }),
    responses: { ...successResponses(doc, endpoint.key), ...errorResponses(errors, doc.plainErrors === true) },
    ...(auth && { security: auth }),
  };
}

/** The HEAD operation of a GET route that documents one: the GET's parameters and failures, no bodies. */
export function buildHeadOperation(endpoint: ApiEndpoint, path: string, doc: RouteDoc, head: HeadDoc): Json {
  const { access, errors, queryParameters } = routeFacts(endpoint, doc);
  const auth = security(access);
  return {
    operationId: operationId('HEAD', path),
    tags: [doc.tag],
    summary: head.summary,
    description: [head.description, accessText(access)].filter(Boolean).join('\n\n'),
    parameters: [...pathParameters(path), ...queryParameters],
    responses: {
      200: { description: 'OK, without a body.', headers: headerObjects(head.headers) },
      ...Object.fromEntries([...errors].sort((a, b) => a - b).map((status) => [String(status), { description: ERROR_RESPONSES[status].description }])),
    },
    ...(auth && { security: auth }),
  };
}
