/** One message for a channel. */
export interface Publication {
  channel: string;
  data: unknown;
}

/** What went wrong talking to Centrifugo: the request failed, or it answered an error. */
export class CentrifugoError extends Error {}

const TIMEOUT_MS = 5_000;

/**
 * Centrifugo's server HTTP API (v5 and v6): `POST <api>/api/<method>` with the API key in `X-API-Key`
 * and the method's JSON body. Hand-written on `fetch`: the two calls the node makes do not need a client
 * library, and Centrifugo's own JavaScript SDK is for subscribers, not for publishing.
 */
export class CentrifugoApi {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** Publishes several messages in one request (`batch` of `publish` commands). */
  async publish(publications: readonly Publication[]): Promise<void> {
    if (publications.length === 0) return;
    const answer = (await this.call('batch', {
      commands: publications.map((publication) => ({ publish: publication })),
    })) as { replies?: { error?: { code: number; message: string } }[] };
    const failed = answer.replies?.find((reply) => reply.error);
    if (failed?.error) {
      throw new CentrifugoError(`publish refused: ${failed.error.message} (${failed.error.code})`);
    }
  }

  /** The servers' state (`info`): whether Centrifugo answers at all. */
  async info(): Promise<unknown> {
    return this.call('info', {});
  }

  private async call(method: string, body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/api/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': this.apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new CentrifugoError(`${method}: ${cause ?? (error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) throw new CentrifugoError(`${method}: HTTP ${response.status} ${text.slice(0, 200)}`);
    try {
      const answer = JSON.parse(text) as { error?: { code: number; message: string } };
      if (answer.error)
        throw new CentrifugoError(`${method}: ${answer.error.message} (${answer.error.code})`);
      return answer;
    } catch (error) {
      if (error instanceof CentrifugoError) throw error;
      throw new CentrifugoError(`${method}: not JSON: ${text.slice(0, 200)}`);
    }
  }
}
