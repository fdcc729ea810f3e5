import type { Response } from 'express';

const WAITING = Symbol('called once the answer is sent');

type Answered = Response & { [WAITING]?: (() => void)[] };

/**
 * Calls `callback` once the answer has been handed to the operating system (the response's 'finish').
 * Every step that waits for the answer (the metric, the log line) shares one listener:
 * adding a listener to a response that has Node's own is a tenth of a short request's own work.
 */
export function afterAnswer(res: Response, callback: () => void): void {
  const answered = res as Answered;
  const waiting = answered[WAITING];
  if (waiting) {
    waiting.push(callback);
    return;
  }
  const callbacks = [callback];
  answered[WAITING] = callbacks;
  res.on('finish', () => {
    for (const call of callbacks) call();
  });
}
