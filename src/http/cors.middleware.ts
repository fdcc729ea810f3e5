import type { NextFunction, Request, Response } from 'express';

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST']);
const SIMPLE_HEADERS = new Set(['Accept', 'Accept-Language', 'Content-Language', 'Origin']);
const ALLOWED_HEADERS = new Set([...SIMPLE_HEADERS, 'Authorization', 'Content-Type', 'X-Requested-With']);

/** "content-type" → "Content-Type", the canonical form the reference compares and echoes. */
function canonicalHeader(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * CORS for every route, REST and JSON-RPC, exactly as the reference answers it (json-rpc.md §1.2), so
 * browser clients served from another origin (Weaver) work: any origin, GET/HEAD/POST, the Authorization,
 * Content-Type and X-Requested-With headers, preflights cached for 600 s.
 */
export function corsMiddleware(req: Request, res: Response, next: NextFunction): void {
  const origin = req.headers.origin;
  if (req.method !== 'OPTIONS') {
    if (origin !== undefined) res.setHeader('Access-Control-Allow-Origin', '*');
    next();
    return;
  }
  if (origin === undefined) {
    res.status(200).end();
    return;
  }
  const requestedMethod = req.headers['access-control-request-method'];
  if (!requestedMethod) {
    res.status(400).end();
    return;
  }
  if (!ALLOWED_METHODS.has(String(requestedMethod).toUpperCase())) {
    res.status(405).end();
    return;
  }
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map(canonicalHeader)
    .filter(Boolean);
  if (requested.some((header) => !ALLOWED_HEADERS.has(header))) {
    res.status(403).end();
    return;
  }
  const echoed = requested.filter((header) => !SIMPLE_HEADERS.has(header));
  if (echoed.length > 0) res.setHeader('Access-Control-Allow-Headers', echoed.join(','));
  res.setHeader('Access-Control-Max-Age', '600');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.status(200).end();
}
