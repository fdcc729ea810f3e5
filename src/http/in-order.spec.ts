import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { inOrder, type Middleware } from './in-order';

const req = {} as Request;
const res = {} as Response;

function run(chain: Middleware): Promise<unknown[]> {
  return new Promise((resolve) => chain(req, res, ((...args: unknown[]) => resolve(args)) as NextFunction));
}

describe('middleware in order', () => {
  it('runs every step in turn, asynchronous ones included, then passes the request on', async () => {
    const seen: string[] = [];
    const step =
      (name: string, later = false): Middleware =>
      (_req, _res, next) => {
        seen.push(name);
        if (later) setTimeout(next, 1);
        else next();
      };
    expect(await run(inOrder(step('a'), step('b', true), step('c')))).toEqual([]);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('stops at an error passed on or thrown, and hands it on', async () => {
    const failure = new Error('refused');
    const reached: string[] = [];
    const after: Middleware = (_req, _res, next) => {
      reached.push('after');
      next();
    };
    expect(await run(inOrder((_req, _res, next) => next(failure), after))).toEqual([failure]);
    expect(
      await run(
        inOrder(() => {
          throw failure;
        }, after),
      ),
    ).toEqual([failure]);
    expect(reached).toEqual([]);
  });

  it('ends where a step answers without passing the request on', async () => {
    let passedOn = false;
    inOrder(
      () => undefined,
      (_req, _res, next) => next(),
    )(req, res, () => (passedOn = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(passedOn).toBe(false);
  });
});
