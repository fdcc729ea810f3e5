import { Injectable } from '@nestjs/common';

export type NodeState = 'running' | 'updating' | 'stopped';

const STATUS_TEXT: Record<NodeState, string> = {
  running: 'node server status is running',
  updating: 'node server is updating',
  stopped: 'node server is stopped',
};

/** The paths answered in every state: the version, the health probes and the Prometheus scrape. */
export const SERVED_IN_EVERY_STATE: ReadonlySet<string> = new Set([
  '/api/v2/version',
  '/healthz',
  '/readyz',
  '/metrics',
]);

/** The JSON-RPC gateway's paths: it answers while updating or stopped, with the state as a per-call error. */
export function isRpcPath(path: string): boolean {
  return path === '/' || path === '/rpc';
}

/** The node-to-node routes: read as raw bytes (their signature covers the body), never in the public documents. */
export function isPeerPath(path: string): boolean {
  return path.startsWith('/node/');
}

/**
 * Whether the node serves requests. While it updates its chain or after the network was stopped, every
 * route except `version` (and the health probes) answers 503 E_UPDATING / E_STOPPING.
 */
@Injectable()
export class NodeStateService {
  private current: NodeState = 'running';
  /**
   * Set when the process was told to stop (SIGTERM): it queues no more transactions and reports itself
   * not ready while it finishes what runs (graceful stop, `src/ops/graceful-stop.ts`).
   */
  draining = false;

  get state(): NodeState {
    return this.current;
  }

  set(state: NodeState): void {
    this.current = state;
  }

  get statusText(): string {
    return STATUS_TEXT[this.current];
  }
}
