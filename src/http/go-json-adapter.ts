import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { type NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { goJsonStringify } from '../common/go-json';
import { JSON_CONTENT_TYPE, RawBody } from './responses';
import { RouteRun } from './route-runs';

type RouteArguments = [path: unknown, ...handlers: unknown[]];

/**
 * The node's Express adapter: REST answers are written with Go's JSON rules (exact 64-bit integers, Go
 * escaping), or as raw bytes; and routes are looked up in runs (`RouteRun`) rather than one by one.
 *
 * Answers are the adapter's own writer rather than a global interceptor: an interceptor puts every request
 * through an Observable chain and an async-context bind, which cost more than the rest of Nest's routing.
 * Handlers that take the response (`@Res()`: the JSON-RPC gateway, the readiness probe) write their own
 * answer and never reach this.
 */
export class GoJsonExpressAdapter extends ExpressAdapter {
  /** The run new routes join, while nothing else has been added to Express's list since it began. */
  private openRun?: { run: RouteRun; listLength: number };
  /** What registers its routes after the application's own (see {@link afterRoutes}). */
  private readonly late: (() => void)[] = [];

  constructor() {
    super();
    // Nest's adapter begins Express's list with an entry that only runs its request and response hooks,
    // which nothing sets here (the setters below refuse): every request would pass it for nothing.
    const list = (this.instance as Express).router.stack;
    if (list.length !== 1) throw new Error(`Nest's Express adapter began with ${list.length} entries, not 1`);
    list.pop();
  }

  /**
   * The HTTP server makes its requests and responses with Express's prototypes of this application from
   * the start. Express gives each request and response those prototypes as it begins (`setPrototypeOf`),
   * and an object whose prototype changed after it was made is slow in V8 ever after: every read of one of
   * its properties (by Express, Nest and the node) took about 1.3 µs instead of 0.17, and every property
   * added 6 µs (bench/README.md). Made with the prototype it would be given, the change is no change.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions) throw new Error('the node serves plain HTTP (TLS ends in front of it)');
    if (options.forceCloseConnections) {
      throw new Error('the node closes its connections itself when it stops (ops/graceful-stop.ts)');
    }
    const express = this.instance as Express;
    this.httpServer = createServer(
      {
        IncomingMessage: madeAs(IncomingMessage, express.request),
        ServerResponse: madeAs(ServerResponse, express.response),
      },
      express,
    );
  }

  override setOnRequestHook(): never {
    throw new Error('the node has no request hook: its middleware runs in app.ts');
  }

  override setOnResponseHook(): never {
    throw new Error('the node has no response hook: its middleware runs in app.ts');
  }

  /**
   * `register` adds its routes once the application's own are in Express's list, before Nest's not-found
   * handler. Express tries its entries in order: routes few requests ask for (the API's documentation and
   * its files) then cost the others nothing.
   */
  afterRoutes(register: () => void): void {
    this.late.push(register);
  }

  override setNotFoundHandler(handler: unknown, prefix?: string): unknown {
    for (const register of this.late.splice(0)) register();
    return super.setNotFoundHandler(handler as Parameters<ExpressAdapter['setNotFoundHandler']>[0], prefix);
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof StreamableFile) return super.reply(response, body, statusCode);
    if (body instanceof RawBody) {
      for (const [name, value] of Object.entries(body.headers)) response.setHeader(name, value);
      const file = new StreamableFile(body.data, { type: body.contentType, length: body.data.length });
      return super.reply(response, file, statusCode);
    }
    return sendJson(response, goJsonStringify(body), statusCode);
  }

  override get(...args: unknown[]): unknown {
    // With one argument this is Express's settings getter.
    if (args.length < 2) return (this.instance as Express).get(args[0] as string);
    return this.route('get', args as RouteArguments);
  }

  override post(...args: unknown[]): unknown {
    return this.route('post', args as RouteArguments);
  }

  override put(...args: unknown[]): unknown {
    return this.route('put', args as RouteArguments);
  }

  override delete(...args: unknown[]): unknown {
    return this.route('delete', args as RouteArguments);
  }

  override patch(...args: unknown[]): unknown {
    return this.route('patch', args as RouteArguments);
  }

  override all(...args: unknown[]): unknown {
    return this.route('all', args as RouteArguments);
  }

  /**
   * Adds a route to the open run, or begins a run where the route would have stood in Express's list. A
   * route no run can hold goes to Express as it is, and the next route begins a new run after it.
   */
  private route(method: 'get' | 'post' | 'put' | 'delete' | 'patch' | 'all', args: RouteArguments): unknown {
    const [path, ...handlers] = args;
    const express = this.instance as Express;
    if (!RouteRun.canHold(method, path) || !handlers.every((handler) => typeof handler === 'function')) {
      return express[method](...(args as Parameters<Express['get']>));
    }
    const list = express.router.stack;
    let open = this.openRun;
    if (!open || open.listLength !== list.length || !open.run.accepts(method, path)) {
      const run = new RouteRun(Boolean(express.get('case sensitive routing')));
      express.use(run.dispatch);
      open = this.openRun = { run, listLength: list.length };
    }
    open.run.add(method, path, handlers as Parameters<RouteRun['add']>[2]);
    return express;
  }
}

/**
 * A constructor that makes what `base` makes, with `prototype` as the object's prototype from the start. A
 * function, not a class: a class's prototype cannot be an object that already exists. It runs `base` on
 * the object `new` made, as Node's own two are written to be run (functions, not classes); making it with
 * `Reflect.construct(base, args, new.target)` instead cost 3.5 times the CPU a request (bench/README.md).
 */
function madeAs<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  if (!Object.prototype.isPrototypeOf.call(base.prototype, prototype)) {
    throw new Error(`Express's prototype does not inherit from ${base.name}'s`);
  }
  function Made(this: object, ...args: unknown[]): void {
    (base as unknown as (...args: unknown[]) => void).apply(this, args);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
}

/**
 * Writes JSON text as Express's `res.send` would (same headers, HEAD and 204/304 handled alike) without its
 * per-answer work this node never needs: parsing and re-writing the Content-Type it was given, and the
 * freshness check (no ETag is sent).
 */
function sendJson(response: Response, json: string, statusCode?: number): Response {
  if (statusCode) response.statusCode = statusCode;
  if (response.statusCode === 204 || response.statusCode === 304) {
    response.removeHeader('Content-Type');
    response.removeHeader('Content-Length');
    response.removeHeader('Transfer-Encoding');
    response.end();
    return response;
  }
  response.setHeader('Content-Type', JSON_CONTENT_TYPE);
  response.setHeader('Content-Length', Buffer.byteLength(json, 'utf8'));
  if (response.req.method === 'HEAD') response.end();
  else response.end(json, 'utf8');
  return response;
}
