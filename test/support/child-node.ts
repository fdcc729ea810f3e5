import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { sleep } from './wire';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ChildNode {
  process: ChildProcess;
  url: string;
  /** What the node printed on stdout (its start banner and, with LOG_LEVEL, its JSON log lines). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The real node as its own process, as `npm start` runs it (scripts/start.cjs), so that signals hit it and
 * nothing else; resolves once `/readyz` answers 200.
 */
export async function startChildNode(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  port: number;
  env?: Record<string, string>;
}): Promise<ChildNode> {
  const env = {
    ...process.env,
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: String(options.port),
    LOG_LEVEL: 'error',
    DATABASE_URL: options.databaseUrl ?? '',
    ...options.env,
  };
  const child = spawn(process.execPath, ['scripts/start.cjs'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${options.port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) {
        return { process: child, url, output: () => stdout, exited };
      }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode} while starting`);
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the node did not become ready');
}

/** Kills a child node that is still running (after a test that may have left it so) and waits for it. */
export async function killChildNode(child: ChildNode | undefined): Promise<void> {
  if (child && child.process.exitCode === null && child.process.signalCode === null) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
}

/** Whether a process with that pid still exists (another user's counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
