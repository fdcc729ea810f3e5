import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { environmentSchema } from '../../src/config/config.schema';

/**
 * Docker does not run here (nor in CI): what can be checked without it is. The image's build and start
 * steps are run by `scripts/check-production-start.sh` (a CI step); this file checks the Dockerfile's
 * stages and the compose file's services, health checks and volumes.
 */

interface Instruction {
  keyword: string;
  args: string;
}

function dockerInstructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const instructions = dockerInstructions(readFileSync('Dockerfile', 'utf8'));
  const stages: Instruction[][] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  const [build, runtime] = stages;
  const runs = (stage: Instruction[]) => stage.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  it('builds in one stage and runs the built node in another', () => {
    expect(stages).toHaveLength(2);
    expect(runs(build).join('\n')).toMatch(/npm ci\b/);
    expect(runs(build).join('\n')).toMatch(/npm run build/);
    expect(runtime.some((i) => i.keyword === 'COPY' && /--from=build\s+\S*dist\s/.test(i.args))).toBe(true);
    const cmd = runtime.find((i) => i.keyword === 'CMD')!;
    expect(JSON.parse(cmd.args)).toEqual(['node', 'dist/main.js']);
  });

  it('installs production dependencies only, copies the build configuration the build reads', () => {
    expect(runs(runtime).join('\n')).toMatch(/npm ci --omit=dev/);
    const copied = build.filter((i) => i.keyword === 'COPY').map((i) => i.args.split(/\s+/).slice(0, -1));
    const build_config = JSON.parse(readFileSync('tsconfig.build.json', 'utf8')) as { include: string[] };
    for (const included of build_config.include) expect(copied.flat()).toContain(included);
  });

  it('runs as a non-root user, with the data directory as a volume, a health check on /readyz and SIGTERM', () => {
    const user = runtime.find((i) => i.keyword === 'USER');
    expect(user?.args).toBeDefined();
    expect(user!.args).not.toMatch(/^(root|0)(:|$)/);
    const dataDir = /DATA_DIR=(\S+)/.exec(runtime.find((i) => i.keyword === 'ENV')!.args)?.[1];
    expect(dataDir).toBe('/data');
    expect(JSON.parse(runtime.find((i) => i.keyword === 'VOLUME')!.args)).toEqual([dataDir]);
    expect(runtime.find((i) => i.keyword === 'HEALTHCHECK')!.args).toMatch(/\/readyz/);
    expect(runtime.find((i) => i.keyword === 'STOPSIGNAL')!.args).toBe('SIGTERM');
    // Whatever is configured by ENV is a setting the node knows.
    const settings = Object.keys(environmentSchema.shape);
    const env = runtime.find((i) => i.keyword === 'ENV')!.args;
    for (const [, name] of env.matchAll(/(\w+)=/g)) if (name !== 'NODE_ENV') expect(settings).toContain(name);
  });
});

/** Whether .dockerignore's patterns (names, folders, `*.ext`, `!` to take back) keep `path` out. */
function ignoredByDocker(path: string, patterns: string[]): boolean {
  let ignored = false;
  for (const line of patterns.map((pattern) => pattern.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    const matches =
      path === pattern ||
      path.startsWith(`${pattern}/`) ||
      (pattern.startsWith('*.') && path.endsWith(pattern.slice(1)));
    if (matches) ignored = !negated;
  }
  return ignored;
}

describe('.dockerignore', () => {
  const patterns = readFileSync('.dockerignore', 'utf8').split('\n');

  it('keeps dependencies, builds, data and secrets out of the build context', () => {
    for (const entry of ['node_modules', 'dist', 'data', '.env', '.git', '.test-data']) {
      expect(patterns).toContain(entry);
      expect(ignoredByDocker(entry, patterns)).toBe(true);
    }
  });

  it('lets in every file the build stage copies from the context', () => {
    const copies = dockerInstructions(readFileSync('Dockerfile', 'utf8')).filter(
      (i) => i.keyword === 'COPY' && !i.args.startsWith('--from'),
    );
    const sources = copies.flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources).toContain('scripts/bundle.cjs');
    for (const source of sources)
      expect([source, ignoredByDocker(source, patterns)]).toEqual([source, false]);
  });
});

describe('compose.yaml', () => {
  const compose = parseYaml(readFileSync('compose.yaml', 'utf8')) as {
    services: Record<string, Record<string, any>>;
    volumes: Record<string, unknown>;
  };

  it('has the node and PostgreSQL 15, each with a health check and a named volume', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['node', 'postgres']);
    const { node, postgres } = compose.services;
    expect(postgres.image).toMatch(/^postgres:15(\b|$)/);
    expect(postgres.healthcheck.test.join(' ')).toMatch(/pg_isready/);
    expect(node.build).toBe('.');
    expect(node.depends_on.postgres.condition).toBe('service_healthy');
    expect(node.healthcheck.test.join(' ')).toMatch(/\/readyz/);
    for (const [service, target] of [
      [postgres, '/var/lib/postgresql/data'],
      [node, '/data'],
    ] as const) {
      const [volume, path] = (service.volumes as string[])[0].split(':');
      expect(path).toBe(target);
      expect(Object.keys(compose.volumes)).toContain(volume);
    }
  });

  it('configures the node by environment with settings it knows, pointing it at the PostgreSQL service', () => {
    const environment = compose.services.node.environment as Record<string, unknown>;
    const settings = Object.keys(environmentSchema.shape);
    for (const name of Object.keys(environment)) expect(settings).toContain(name);
    expect(String(environment.DATABASE_URL)).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(environment.DATA_DIR).toBe('/data');
    expect(environment.HOST).toBe('0.0.0.0');
    // Compose's SIGKILL must not come before the node's own shutdown bound.
    expect(Number.parseInt(compose.services.node.stop_grace_period, 10) * 1000).toBeGreaterThan(
      Number(environment.SHUTDOWN_TIMEOUT_MS),
    );
  });
});
