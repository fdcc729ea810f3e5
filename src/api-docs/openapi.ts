import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { goJsonStringify } from '../common/go-json';
import { isRpcPath, SERVED_IN_EVERY_STATE } from '../common/node-state.service';
import { ERROR_CODES, type ErrorCode } from '../common/error-codes';
import { readBuildInfo } from '../common/build-info';
import { BLOCKCHAIN_ONLY_EXTENSION, ERROR_CODES_EXTENSION, SESSION_AUTH } from './api-route.decorator';
import { apiExamples, withoutBigInts, type RestExample } from './examples';
import { schema as s } from './schema';

export const OPENAPI_PATH = 'api/v2/openapi.json';
export const API_DOCS_PATH = 'api/docs';

const ERROR_SCHEMA = 'ApiError';

/** The parts of an OpenAPI operation that examples are added to. */
type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
interface MediaObject {
  example?: unknown;
}
interface ParameterObject {
  name: string;
  in: string;
  example?: unknown;
}
interface RequestBodyObject {
  content: Record<string, MediaObject>;
}
interface ResponseObject {
  content?: Record<string, MediaObject>;
}
const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** An error a route answers with: its code, the status it comes with, and when, if not the code's own. */
interface ErrorAnswer {
  code: ErrorCode;
  status: number;
  when?: string;
}

/** On a CLB node, a route of the blockchain only (`@BlockchainRoute`) answers as an unknown path does. */
const CLB_NOT_FOUND: ErrorAnswer = { code: 'E_NOTFOUND', status: 404, when: 'on a CLB node' };

/** What any route may answer with, besides its own errors. */
function commonAnswers(path: string, method: string, secured: boolean): ErrorAnswer[] {
  const answers: ErrorAnswer[] = [
    { code: 'E_RECOVERED', status: ERROR_CODES.E_RECOVERED.status },
    { code: 'E_SERVER', status: 503, when: 'the request took longer than REQUEST_TIMEOUT_MS' },
  ];
  if (method === 'post') {
    answers.push(
      { code: 'E_SERVER', status: 400, when: 'a body that cannot be read' },
      { code: 'E_SERVER', status: 413, when: 'a body, field or file over its limit' },
      { code: 'E_SERVER', status: 415, when: 'a charset or encoding not supported' },
    );
  }
  // While the node updates or after the network stopped, every REST route but these answers 503.
  if (!SERVED_IN_EVERY_STATE.has(path) && !isRpcPath(path)) {
    answers.push(
      { code: 'E_UPDATING', status: ERROR_CODES.E_UPDATING.status },
      { code: 'E_STOPPING', status: ERROR_CODES.E_STOPPING.status },
    );
  }
  if (secured) {
    answers.push(
      { code: 'E_UNAUTHORIZED', status: ERROR_CODES.E_UNAUTHORIZED.status },
      { code: 'E_TOKENEXPIRED', status: ERROR_CODES.E_TOKENEXPIRED.status },
    );
  }
  return answers;
}

/**
 * The OpenAPI 3.1 document of every REST route, built from the controllers' decorators (`@ApiRoute`,
 * `@Auth`) when first asked for. Each route's error codes become responses by status, each in the error
 * envelope `{error, msg, params}` with the codes (and their message templates) it may carry.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('IBAX node: REST API v2')
    .setDescription(
      'REST API v2 of the IBAX node. Form values are read from the query string and, for POST, from an ' +
        'urlencoded or multipart body. Failures answer `{"error","msg","params"}` with the status of the ' +
        'code. JSON-RPC shares the port at `/` (and `/rpc`); its methods are listed by `rpc.discover` ' +
        '(OpenRPC). Prometheus metrics: `/metrics`.',
    )
    .setVersion(readBuildInfo().version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, SESSION_AUTH)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}.${method}`,
  });
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      [ERROR_SCHEMA]: s.object(
        {
          error: { type: 'string', enum: ALL_CODES, description: 'the error code' },
          msg: s.string('the message, its template filled with `params`'),
          params: s.array(s.any(), 'the values filled into the message'),
        },
        { description: 'The error envelope of every REST failure' },
      ) as never,
    },
  };
  const examples = apiExamples().rest;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item) as OperationObject[]) {
      const example = operation?.operationId ? examples[operation.operationId] : undefined;
      if (example) addExample(path, operation, example);
    }
    // A route for every method (`@All`, the JSON-RPC gateway) is listed with the two it serves; the
    // others answer 405.
    const methods = item as Record<string, unknown>;
    if (methods.search)
      for (const method of ['put', 'delete', 'patch', 'options', 'head', 'search']) delete methods[method];
    for (const [method, operation] of Object.entries(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const extensions = operation as Record<string, unknown>;
      const declared = (extensions[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined) ?? [];
      const answers: ErrorAnswer[] = [
        ...declared.map((code) => ({ code, status: ERROR_CODES[code].status })),
        ...commonAnswers(path, method, Boolean(operation.security?.length)),
      ];
      if (extensions[BLOCKCHAIN_ONLY_EXTENSION]) answers.push(CLB_NOT_FOUND);
      extensions[ERROR_CODES_EXTENSION] = [...new Set(answers.map((answer) => answer.code))];
      const byStatus = new Map<number, ErrorAnswer[]>();
      for (const answer of answers) {
        const group = byStatus.get(answer.status) ?? [];
        if (!group.some((known) => known.code === answer.code && known.when === answer.when))
          group.push(answer);
        byStatus.set(answer.status, group);
      }
      for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
        const codes = [...new Set(group.map((answer) => answer.code))];
        operation.responses[String(status)] = {
          description: group
            .map(({ code, when }) => `${code}: ${ERROR_CODES[code].message}${when ? ` (${when})` : ''}`)
            .join('; '),
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: `#/components/schemas/${ERROR_SCHEMA}` },
                  { properties: { error: { enum: codes } } },
                ],
              } as never,
            },
          },
        };
      }
    }
  }
  return document;
}

/**
 * A recorded example into the operation: each path and query parameter's value, the POST form, the answer
 * (by its media type), and the request as a curl command (`x-codeSamples`, which Redoc and others show).
 */
function addExample(path: string, operation: OperationObject, example: RestExample): void {
  const { request } = example;
  const [concretePath, query = ''] = request.path.split('?');
  const pathValues = pathParameterValues(path, concretePath);
  const queryValues = new URLSearchParams(query);
  for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
    const value = parameter.in === 'path' ? pathValues[parameter.name] : queryValues.get(parameter.name);
    if (value !== undefined && value !== null) parameter.example = value;
  }
  const body = operation.requestBody as RequestBodyObject | undefined;
  const sent = request.form ?? request.json;
  if (body && sent !== undefined) for (const media of Object.values(body.content)) media.example = sent;
  const answer = operation.responses[String(example.status)] as ResponseObject | undefined;
  const media = answer?.content?.[example.type] ?? Object.values(answer?.content ?? {})[0];
  if (media) media.example = example.response;
  (operation as unknown as Record<string, unknown>)['x-codeSamples'] = [
    { lang: 'Shell', label: 'curl', source: curlCommand(request) },
  ];
}

/** `/api/v2/row/{name}/{id}` against `/api/v2/row/notes/2`: `{ name: 'notes', id: '2' }`. */
function pathParameterValues(template: string, path: string): Record<string, string> {
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (!match) return {};
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
}

function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlCommand(request: RestExample['request']): string {
  const parts = ['curl', '-g'];
  // curl sends a body with POST by itself; a GET with one (the JSON-RPC gateway's) must be asked for.
  if (request.method === 'POST' && !request.form && request.json === undefined) parts.push('-X', 'POST');
  if (request.method === 'GET' && request.json !== undefined) parts.push('-X', 'GET');
  parts.push(shellQuoted(`http://127.0.0.1:7079${request.path}`));
  if (request.session) parts.push('-H', '"Authorization: Bearer $TOKEN"');
  for (const [name, value] of Object.entries(request.form ?? {})) {
    parts.push('--data-urlencode', shellQuoted(`${name}=${value}`));
  }
  if (request.json !== undefined) {
    parts.push('-H', "'Content-Type: application/json'", '-d', shellQuoted(JSON.stringify(request.json)));
  }
  return parts.join(' ');
}

/**
 * Serves the document at `/api/v2/openapi.json` (and `/api/docs-json`, where Nest users look for it) and the
 * browsable UI (swagger-ui-dist from npm) at `/api/docs`. The JSON is written by the node's own writer:
 * examples hold int64 values beyond 2^53 (key ids), which JSON.stringify cannot write exactly; the UI's
 * copy has them as numbers, as its JavaScript would read them anyway.
 */
export function serveApiDocs(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  let json: string | undefined;
  const documentOf = () => (document ??= buildOpenApiDocument(app));
  SwaggerModule.setup(API_DOCS_PATH, app, () => withoutBigInts(documentOf()), {
    raw: false,
    customSiteTitle: 'IBAX node API',
  });
  for (const path of [OPENAPI_PATH, `${API_DOCS_PATH}-json`]) {
    app
      .getHttpAdapter()
      .get(`/${path}`, (_req: unknown, res: { type(t: string): { send(body: string): void } }) =>
        res.type('application/json').send((json ??= goJsonStringify(documentOf()))),
      );
  }
}
