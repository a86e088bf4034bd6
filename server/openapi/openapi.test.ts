import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARE_PEEK_HEADERS } from '../../contract/share-peek';
import { useTestApp } from '../../tests/fixtures/test-app';
import { buildOpenApi } from './document';
import { apiEndpoints, openApiPath } from './routes';

type Operation = {
  operationId: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  parameters: { name: string; in: string; required: boolean }[];
  responses: Record<string, Answer>;
};
type Answer = { $ref?: string; content?: Record<string, { schema: object }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object>; responses: Record<string, Answer> };
};

describe('GET /api/openapi.json', () => {
  const t = useTestApp();
  let doc: Document;
  const op = (method: string, path: string): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not in the document`);
    return found;
  };

  beforeAll(async () => {
    const res = await t.request('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as Document;
  });

  it('documents every route of the app, and no route the app lacks', () => {
    const { undocumented, unknown } = buildOpenApi(t.app.routes);
    expect(undocumented).toEqual([]);
    expect(unknown).toEqual([]);

    const served = apiEndpoints(t.app.routes).map((e) => `${e.method.toLowerCase()} ${openApiPath(e.path)}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    // Hono answers a HEAD with the GET handler, so a documented HEAD is served wherever its GET is.
    const heads = documented.filter((operation) => operation.startsWith('head '));
    expect(heads.map((head) => head.replace(/^head /, 'get ')).filter((get) => !served.includes(get))).toEqual([]);
    expect(documented.filter((operation) => !heads.includes(operation)).sort()).toEqual(served.sort());
    // Sanity: the app really is this big, so an empty `app.routes` cannot pass the comparison above.
    expect(served.length).toBeGreaterThan(120);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does reject: the same document with an answer lacking its (required) description.
    const broken = structuredClone(doc);
    const health = broken.paths['/api/health']?.get;
    if (health) health.responses['200'] = {};
    expect((await new Validator().validate(broken)).valid).toBe(false);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads request schemas and access rules from the routes\' middlewares', () => {
    const paste = op('post', '/api/paste');
    expect(paste.requestBody?.content['application/json']?.schema.required).toEqual(['content']);
    expect(paste.security).toEqual([{ Bearer: [] }, { ApiKey: [] }]);
    expect(Object.keys(paste.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409']));

    expect(op('get', '/api/admin/api-keys').security).toEqual([{ Bearer: [] }]);
    expect(op('get', '/api/user/pastes').security).toEqual([{ Bearer: [] }, { ApiKey: [] }]);
    expect(op('get', '/api/test/api-key').security).toEqual([{ ApiKey: [] }]);
    expect(op('post', '/api/s3-configs').security).toEqual([{ Bearer: [] }]);
    expect(op('get', '/api/s3-configs').security).toEqual([{ Bearer: [] }, { ApiKey: [] }]);
    for (const open of [op('get', '/api/health'), op('get', '/api/paste/{slug}'), op('get', '/api/public/files/{slug}')]) {
      expect(open.security).toBeUndefined();
      expect(open.responses['401']).toBeUndefined();
    }

    expect(op('get', '/api/user/pastes').parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:limit', 'query:offset']);
    expect(op('put', '/api/admin/pastes/{id}').parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const upload = op('post', '/api/upload').requestBody?.content['multipart/form-data']?.schema;
    expect(upload?.required).toContain('file');
    expect(Object.keys(upload?.properties ?? {})).toEqual(expect.arrayContaining(['file', 'slug', 'expires_in']));
  });

  it('documents the peek (HEAD) of shares with its headers, and the encrypted payload\'s format', () => {
    type Head = { responses: Record<string, { headers?: Record<string, { description: string }> }> };
    const headOf = (path: string) => (doc.paths[path] as unknown as Record<string, Head>).head;
    for (const path of ['/api/paste/{slug}', '/api/raw/{slug}', '/api/public/files/{slug}', '/api/file-view/{slug}', '/api/file-download/{slug}']) {
      const headers = headOf(path)?.responses['200']?.headers ?? {};
      expect(Object.keys(headers), path).toEqual(expect.arrayContaining(Object.values(SHARE_PEEK_HEADERS)));
      expect(op('get', path).operationId).not.toBe('');
    }
    expect(Object.keys(op('get', '/api/paste/{slug}').responses['200'] as object)).toContain('headers');
    const publicPaste = JSON.stringify(doc.components.schemas.PublicPaste);
    expect(publicPaste).toContain('aes-256-gcm');
    expect(publicPaste).toMatch(/base64url without padding/);
    expect(JSON.stringify(op('post', '/api/paste').requestBody)).toContain('aes-256-gcm');
  });

  it('describes the lenient forms a client may send (numbers as text, an empty slug)', () => {
    const createPaste = JSON.stringify(op('post', '/api/paste').requestBody);
    expect(createPaste).toContain('The same number written as a string.');
    expect(createPaste).toContain('A custom link; empty asks for none.');
  });

  /** The documented answers are the real ones: a few live calls, checked against the document's own schemas. */
  it('describes what the server really answers', async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const check = async (method: string, path: string, res: Response) => {
      let answer = op(method, path).responses[String(res.status)];
      if (answer?.$ref) answer = doc.components.responses[answer.$ref.replace('#/components/responses/', '')];
      const schema = answer?.content?.['application/json']?.schema;
      expect(schema, `${method} ${path} documents ${res.status}`).toBeDefined();
      const refs = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object;
      const body: unknown = await res.json();
      const valid = ajv.validate(refs, body);
      expect(valid, `${method} ${path}: ${ajv.errorsText()}\n${JSON.stringify(body)}`).toBe(true);
    };
    const key = (await t.createKey(t.token, { text_permission: true, file_permission: true })).key;

    await check('get', '/api/health', await t.request('/api/health'));
    await check('get', '/api/version', await t.request('/api/version'));
    await check('get', '/api/test/api-key', await t.request('/api/test/api-key', { apiKey: key }));
    const created = await t.request('/api/paste', { apiKey: key, json: { content: 'hello' } });
    const slug = ((await created.clone().json()) as { data: { slug: string } }).data.slug;
    await check('post', '/api/paste', created);
    await check('get', '/api/paste/{slug}', await t.request(`/api/paste/${slug}`));
    await check('get', '/api/user/pastes', await t.request('/api/user/pastes', { apiKey: key }));
    await check('post', '/api/paste', await t.request('/api/paste', { apiKey: key, json: { content: 'x', slug } }));
    await check('post', '/api/paste', await t.request('/api/paste', { apiKey: key, json: {} }));

    const form = new FormData();
    form.append('file', new Blob(['bytes']), 'a.txt');
    await check('post', '/api/upload', await t.request('/api/upload', { apiKey: key, body: form }));
    await check('get', '/api/user/files', await t.request('/api/user/files', { apiKey: key }));
    await check('get', '/api/admin/files', await t.request('/api/admin/files', { apiKey: key }));
    await check('get', '/api/admin/dashboard/stats', await t.request('/api/admin/dashboard/stats', { token: t.token }));
    await check('get', '/api/s3-configs', await t.request('/api/s3-configs', { token: t.token }));
    await check('get', '/api/admin/mounts', await t.request('/api/admin/mounts', { token: t.token }));
    await check('get', '/api/admin/fs/list', await t.request('/api/admin/fs/list?path=/', { token: t.token }));
  });
});
