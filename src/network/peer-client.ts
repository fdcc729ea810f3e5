/** Requests to another honor node's node-to-node routes (`/node/v1/…`), signed, bounded and timed out. */
import type { SignedVote } from '../chain/finality.service';

/** What a node says of itself and its chain (`GET /node/v1/status`). */
export interface PeerStatus {
  block_id: string;
  /** Hex. */
  hash: string;
  /** Unix seconds of its last block. */
  time: string;
  /** 04-prefixed hex. */
  public_key: string;
  api_address: string;
  tcp_address: string;
  /** The highest final block it holds. */
  final_block_id: string;
}

/** A block of a node's chain as `GET /node/v1/hashes` lists it. */
export interface ChainEntry {
  id: string;
  /** Hex. */
  hash: string;
  /** Unix seconds. */
  time: string;
  /** Its producer's position. */
  position: string;
}

export interface BlockAnnouncement {
  block_id: string;
  hash: string;
  /** Its parent's hash, hex. */
  prev_hash: string;
  /** Unix seconds. */
  time: string;
  /** Its producer's position. */
  position: string;
  /** Hex hashes of the block's transactions. */
  txs: string[];
  /** When the block committed on its producer (ms): the receiver measures propagation from it. */
  committed_at_ms: number;
}

export type RequestSigner = (
  method: string,
  pathAndQuery: string,
  body: Uint8Array,
) => Record<string, string>;

const TIMEOUT_MS = 10_000;
/** The most a node reads of one answer: a batch of blocks stops well below it (see NodeController). */
export const MAX_ANSWER_BYTES = 128 * 1024 * 1024;

export class PeerRequestError extends Error {}

export class PeerClient {
  constructor(
    readonly url: string,
    private readonly sign: RequestSigner,
  ) {}

  status(): Promise<PeerStatus> {
    return this.get<PeerStatus>('/node/v1/status');
  }

  async hashes(from: bigint, count: number): Promise<ChainEntry[]> {
    return (await this.get<{ hashes: ChainEntry[] }>(`/node/v1/hashes?from=${from}&count=${count}`)).hashes;
  }

  async votes(from: bigint): Promise<SignedVote[]> {
    return (await this.get<{ votes: SignedVote[] }>(`/node/v1/votes?from=${from}`)).votes;
  }

  async sendVotes(votes: readonly SignedVote[]): Promise<void> {
    await this.post('/node/v1/votes', { votes });
  }

  async blocks(from: bigint, count: number): Promise<Buffer[]> {
    const answer = await this.get<{ blocks: string[] }>(`/node/v1/blocks?from=${from}&count=${count}`);
    return answer.blocks.map((block) => Buffer.from(block, 'base64'));
  }

  async announce(announcement: BlockAnnouncement): Promise<void> {
    await this.post('/node/v1/announce', announcement);
  }

  async sendTxs(txs: readonly Buffer[]): Promise<void> {
    await this.post('/node/v1/txs', { txs: txs.map((tx) => tx.toString('base64')) });
  }

  private get<T>(pathAndQuery: string): Promise<T> {
    return this.request<T>('GET', pathAndQuery, new Uint8Array());
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, Buffer.from(JSON.stringify(body)));
  }

  private async request<T>(method: string, pathAndQuery: string, body: Uint8Array): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${pathAndQuery}`, {
        method,
        headers: {
          ...this.sign(method, pathAndQuery, body),
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        body: method === 'POST' ? body : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new PeerRequestError(`${this.url} does not answer: ${(error as Error).message}`);
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new PeerRequestError(`${this.url}${pathAndQuery}: an answer of ${length} bytes is too large`);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new PeerRequestError(
        `${this.url}${pathAndQuery} answered ${response.status}: ${text.slice(0, 200)}`,
      );
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PeerRequestError(`${this.url}${pathAndQuery}: the answer is not JSON`);
    }
  }
}
