import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BuildInfo {
  version: string;
  branch: string;
  commit: string;
  time: string;
}

/**
 * Version and build stamp for `version`: BUILD_BRANCH / BUILD_COMMIT / BUILD_TIME when a build sets them
 * (container images do), else read from the git checkout the node runs from, else "unknown".
 */
export function readBuildInfo(root = process.cwd(), env = process.env): BuildInfo {
  const pkg = JSON.parse(readFileSync(packageFile(), 'utf8')) as { version: string };
  const git = readGit(join(root, '.git'));
  return {
    version: pkg.version,
    branch: env.BUILD_BRANCH || git.branch || 'unknown',
    commit: env.BUILD_COMMIT || git.commit || 'unknown',
    time: env.BUILD_TIME || 'unknown',
  };
}

/** The project's package.json, above src/ (tests), dist/ (the built node) or the bundle npm start keeps in node_modules/.cache. */
function packageFile(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('package.json of the node was not found');
  }
}

function readGit(gitDir: string): { branch?: string; commit?: string } {
  try {
    if (!existsSync(join(gitDir, 'HEAD'))) return {};
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return { commit: head.slice(0, 8) };
    const ref = head.slice(5);
    const branch = ref.replace(/^refs\/heads\//, '');
    const loose = join(gitDir, ref);
    if (existsSync(loose)) return { branch, commit: readFileSync(loose, 'utf8').trim().slice(0, 8) };
    const packed = join(gitDir, 'packed-refs');
    const line = existsSync(packed)
      ? readFileSync(packed, 'utf8')
          .split('\n')
          .find((entry) => entry.endsWith(` ${ref}`))
      : undefined;
    return { branch, commit: line?.slice(0, 8) };
  } catch {
    return {};
  }
}

export function versionText(build: BuildInfo, status: string): string {
  return `${build.version} branch.${build.branch} commit.${build.commit} time.${build.time} ${status}`;
}
