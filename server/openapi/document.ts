import { APP_VERSION } from '../version';
import { ROUTE_DOCS } from './catalog';
import { TAGS, type RouteKey } from './catalog/types';
import { namedSchemas, refTo } from './json-schema';
import { buildHeadOperation, buildOperation, ERROR_RESPONSES } from './operation';
import { apiEndpoints, openApiPath, type HonoRoute } from './routes';

const INTRO = `Every JSON answer is one envelope \`{ code, message, data, success }\`; \`code\` equals the HTTP status
(200, 201, or 202 when a batch finished with some failures). A failure carries \`data.error\`, a machine-readable
reason, and for invalid input \`data.field\` and \`data.issue\`. \`message\` is English, or Chinese with
\`Accept-Language: zh-CN\`.

Scripts authenticate with an API key (created under Admin → API keys): \`Authorization: ApiKey <key>\`. The admin
logs in for a bearer token: \`Authorization: Bearer <token>\`. Each operation says who may call it. The README's
"Use it from scripts" has curl recipes.

Numbers may also come as numeric strings (\`"36"\`), yes/no as \`"true"\`/\`"false"\`; an empty \`slug\` asks for
none, and a null \`contentType\` lets the server take the type from the file's name, as CloudPaste's client sends them.

Pages of another origin may call the API when the server lists that origin in \`CORS_ORIGINS\`: their preflight
(\`OPTIONS\`) is answered 204 and the answers allow credentials. Preflights from other origins get a 403; every
answer varies by \`Origin\`.`;

export interface OpenApiBuild {
  document: Record<string, unknown>;
  /** Routes of the app that the catalog does not describe. */
  undocumented: RouteKey[];
  /** Catalog entries for routes the app does not have. */
  unknown: RouteKey[];
}

/** The OpenAPI 3.1 document of the app's routes (`app.routes`), from the catalog and the routes' middlewares. */
export function buildOpenApi(routes: readonly HonoRoute[]): OpenApiBuild {
  const endpoints = apiEndpoints(routes);
  const paths: Record<string, Record<string, unknown>> = {};
  const undocumented: RouteKey[] = [];
  for (const endpoint of endpoints) {
    const doc = ROUTE_DOCS.get(endpoint.key);
    if (!doc) {
      undocumented.push(endpoint.key);
      continue;
    }
    const path = openApiPath(endpoint.path);
    paths[path] = {
      ...paths[path],
      [endpoint.method.toLowerCase()]: buildOperation(endpoint, path, doc),
      ...(doc.head && { head: buildHeadOperation(endpoint, path, doc, doc.head) }),
    };
  }
  const served = new Set(endpoints.map((endpoint) => endpoint.key));
  const unknown = [...ROUTE_DOCS.keys()].filter((key) => !served.has(key));

  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Clipstash API',
      version: APP_VERSION,
      description: INTRO,
    },
    tags: TAGS,
    paths,
    components: {
      schemas: namedSchemas(),
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description, empty }) => [
          name,
          { description, ...(!empty && { content: { 'application/json': { schema: refTo('ErrorEnvelope') } } }) },
        ]),
      ),
      securitySchemes: {
        Bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin\'s token from `POST /api/admin/login`, valid 24 hours.',
        },
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'An API key, sent as `Authorization: ApiKey <key>` (type `ApiKey ` before the key here).',
        },
      },
    },
  };
  return { document, undocumented, unknown };
}
