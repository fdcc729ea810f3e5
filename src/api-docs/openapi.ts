import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '../common/error-codes';
import { readBuildInfo } from '../system/build-info';
import { ERROR_CODES_EXTENSION } from './api-route.decorator';
import { schema as s } from './schema';

export const OPENAPI_PATH = 'api/v2/openapi.json';
export const API_DOCS_PATH = 'api/docs';
/** The security scheme `@Auth()` routes name: the session token of `login`. */
export const SESSION_AUTH = 'session';

const ERROR_SCHEMA = 'ApiError';
const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** Codes any route may answer with, besides its own. */
function commonCodes(path: string, secured: boolean): ErrorCode[] {
  const codes: ErrorCode[] = ['E_RECOVERED'];
  // While the node updates or after the network stopped, every REST route but `version` answers 503.
  if (path.startsWith('/api/v2/') && path !== '/api/v2/version') codes.push('E_UPDATING', 'E_STOPPING');
  if (secured) codes.push('E_UNAUTHORIZED', 'E_TOKENEXPIRED');
  return codes;
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
  for (const [path, item] of Object.entries(document.paths)) {
    // A route for every method (`@All`, the JSON-RPC gateway) is listed with the two it serves; the
    // others answer 405.
    const methods = item as Record<string, unknown>;
    if (methods.search)
      for (const method of ['put', 'delete', 'patch', 'options', 'head', 'search']) delete methods[method];
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const declared = (operation as Record<string, unknown>)[ERROR_CODES_EXTENSION] as
        ErrorCode[] | undefined;
      const codes = [
        ...new Set([...(declared ?? []), ...commonCodes(path, Boolean(operation.security?.length))]),
      ];
      (operation as Record<string, unknown>)[ERROR_CODES_EXTENSION] = codes;
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of codes) {
        const { status } = ERROR_CODES[code];
        byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
      }
      for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
        operation.responses[String(status)] = {
          description: group.map((code) => `${code}: ${ERROR_CODES[code].message}`).join('; '),
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: `#/components/schemas/${ERROR_SCHEMA}` },
                  { properties: { error: { enum: group } } },
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

/** Serves the document at `/api/v2/openapi.json` and the browsable UI (swagger-ui-dist from npm) at `/api/docs`. */
export function serveApiDocs(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(API_DOCS_PATH, app, () => (document ??= buildOpenApiDocument(app)), {
    jsonDocumentUrl: OPENAPI_PATH,
    raw: ['json'],
    customSiteTitle: 'IBAX node API',
  });
}
