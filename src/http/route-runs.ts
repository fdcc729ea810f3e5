import { METHODS } from 'node:http';
import FindMyWay from 'find-my-way';
import { Router, type Express, type NextFunction, type Request, type Response } from 'express';

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;

/** Express's own record of a route (`router`'s Route): it checks the method and runs the handlers. */
interface ExpressRoute {
  dispatch(req: Request, res: Response, next: NextFunction): void;
}

/** An entry of Express's list, a route's when `route` is set. */
export interface ExpressListEntry {
  handle: object;
  route?: { path: string; methods: Record<string, boolean | undefined> };
}

const NODE_METHODS = METHODS.map((method) => method.toLowerCase());

/** Each run by the middleware that stands for it in Express's list. */
const RUN_OF_DISPATCH = new WeakMap<object, RouteRun>();

/**
 * An app's Express list with each run's routes in its place: every route the app serves, in the order
 * Express would try them (what the API description's and the fuzz tests' route discovery reads).
 */
export function expressList(app: Express): ExpressListEntry[] {
  return (app.router.stack as ExpressListEntry[]).flatMap(entriesOf);
}

/** The entries one entry of Express's list stands for: a run's routes, or the entry itself. */
export function entriesOf(entry: ExpressListEntry): ExpressListEntry[] {
  return RUN_OF_DISPATCH.get(entry.handle)?.entries() ?? [entry];
}

/**
 * A path a run holds: words, and parameters that are whole segments with plain names. Every route of the
 * node's is so, and the spec compares such routes with Express; anything else (`/:id-:rev`, `*rest`) stays
 * with Express.
 */
const PLAIN_PATH = /^(?:\/|(?:\/(?::\w+|[\w.~-]+))+\/?)$/;

/**
 * A stretch of routes that Express would try one after another, found in one lookup instead.
 *
 * Express matches a request against its routes in the order they were registered, one regular expression
 * each; with the node's hundred routes that scan was a tenth of a simple request's CPU. A run holds routes
 * registered with no middleware between them and no two of which could match the same request, so the
 * first match Express would find is the only match there is, and find-my-way's radix tree (Fastify's
 * router) finds it. The run's routes also sit in an Express router of their own, which answers the
 * requests the tree cannot decide alike: a path with percent-encoding or a doubled slash (find-my-way
 * decodes the first where Express decodes only parameters, and takes the second as an empty parameter or
 * a trailing slash, which Express refuses).
 * A route that passes its request on with `next()` leaves the run (none of the node's does).
 */
export class RouteRun {
  private readonly table: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private readonly fallback: Router;
  private readonly routes: { methods: Set<string>; segments: string[] }[] = [];

  constructor(private readonly caseSensitive: boolean) {
    // Express puts no bound on a parameter's length (find-my-way's default is 100 characters).
    this.table = FindMyWay({ caseSensitive, ignoreTrailingSlash: true, maxParamLength: Infinity });
    this.fallback = Router({ caseSensitive, strict: false });
    RUN_OF_DISPATCH.set(this.dispatch, this);
  }

  /** The run's routes as entries of Express's list. */
  entries(): ExpressListEntry[] {
    return this.fallback.stack as ExpressListEntry[];
  }

  /** Whether a run can hold the route at all: a method it looks up and a path of words and parameters. */
  static canHold(method: string, path: unknown): path is string {
    return typeof path === 'string' && PLAIN_PATH.test(path) && (method === 'all' || method in TABLE_METHODS);
  }

  /** Whether the route can join this run: no route already here could share a request with it. */
  accepts(method: string, path: string): boolean {
    const methods = answeredMethods(method);
    const segments = this.segmentsOf(path);
    return !this.routes.some(
      (route) => sharesMethod(route.methods, methods) && sharesPath(route.segments, segments),
    );
  }

  add(method: string, path: string, handlers: Handler[]): void {
    const route = this.fallback.route(path) as unknown as Record<string, (...h: Handler[]) => void>;
    // As Express's `app.all` does: the route takes every method Node knows, one by one.
    for (const each of method === 'all' ? NODE_METHODS : [method]) route[each](...handlers);
    if (method === 'all') this.table.all(path, () => undefined, route);
    else this.table.on(TABLE_METHODS[method], path, () => undefined, route);
    this.routes.push({ methods: answeredMethods(method), segments: this.segmentsOf(path) });
  }

  /** The middleware that stands where the run's routes would stand in Express's list. */
  readonly dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    if (path.includes('%') || path.includes('//')) {
      this.fallback(req, res, next);
      return;
    }
    const found = this.table.find(req.method as FindMyWay.HTTPMethod, path);
    if (found === null) {
      next();
      return;
    }
    req.params = { ...found.params } as Record<string, string>;
    (found.store as ExpressRoute).dispatch(req, res, next);
  };

  private segmentsOf(path: string): string[] {
    const segments = path.replace(/\/$/, '').split('/');
    return this.caseSensitive ? segments : segments.map((segment) => segment.toLowerCase());
  }
}

/** The methods a route registered with the adapter's `method` answers ('*': every one). */
function answeredMethods(method: string): Set<string> {
  return new Set(method === 'all' ? ['*'] : TABLE_METHODS[method]);
}

/** The methods a run looks a route up under, by the adapter's method: a GET route answers HEAD too. */
const TABLE_METHODS: Record<string, FindMyWay.HTTPMethod[]> = {
  get: ['GET', 'HEAD'],
  post: ['POST'],
  put: ['PUT'],
  delete: ['DELETE'],
  patch: ['PATCH'],
};

function sharesMethod(left: Set<string>, right: Set<string>): boolean {
  if (left.has('*') || right.has('*')) return true;
  for (const method of left) if (right.has(method)) return true;
  return false;
}

/** Whether some request path could match both: as long, and no position with two different words. */
function sharesPath(left: string[], right: string[]): boolean {
  if (left.length !== right.length) return false;
  return left.every(
    (segment, i) => segment === right[i] || segment.startsWith(':') || right[i].startsWith(':'),
  );
}
