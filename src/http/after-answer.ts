import { subscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';

const WAITING = Symbol('called once the answer is sent');

type Answered = ServerResponse & { [WAITING]?: (() => void)[] };

/** Node announces every answer its HTTP servers finish here, as its own 'finish' listener runs. */
const ANSWER_FINISHED = 'http.server.response.finish';

let listening = false;

/**
 * Calls `callback` once the answer has been handed to the operating system (the response's 'finish').
 * Every step that waits for the answer (the metric, the log line) is called from Node's announcement of
 * the finished answer, which this module hears once for the whole process: a 'finish' listener added to
 * each response (which has Node's own already) was a few percent of a short request's work.
 */
export function afterAnswer(res: ServerResponse, callback: () => void): void {
  if (!listening) {
    listening = true;
    subscribe(ANSWER_FINISHED, (message) => {
      const waiting = (message as { response: Answered }).response[WAITING];
      if (waiting) for (const call of waiting) call();
    });
  }
  const answered = res as Answered;
  const waiting = answered[WAITING];
  if (waiting) waiting.push(callback);
  else answered[WAITING] = [callback];
}
