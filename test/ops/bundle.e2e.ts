import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newDataDir } from '../support/node';

/** The bundler is CommonJS that runs without TypeScript (scripts/bundle.cjs); loaded as npm start loads it. */
const { ROOT, SWC_OPTIONS, bundle, digest } = createRequire(__filename)('../../scripts/bundle.cjs') as {
  ROOT: string;
  SWC_OPTIONS: {
    jsc: {
      keepClassNames: boolean;
      target: string;
      transform: { legacyDecorator: boolean; decoratorMetadata: boolean; useDefineForClassFields: boolean };
    };
  };
  bundle(outDir: string): Promise<string[]>;
  digest(files: string[]): string;
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the node bundled into one file (scripts/bundle.cjs)', () => {
  it('holds the node, its source map and the contracts, and names what it was built from', async () => {
    const out = newDataDir();
    dirs.push(out);
    const inputs = await bundle(relative(ROOT, out));

    const main = readFileSync(join(out, 'main.js'), 'utf8');
    expect(main).toMatch(/\/\/# sourceMappingURL=main\.js\.map\s*$/);
    expect(existsSync(join(out, 'main.js.map'))).toBe(true);
    // Packages that read files beside their own code stay in node_modules, required at run time.
    for (const kept of ['secp256k1/bindings', 'swagger-ui-dist/absolute-path.js']) {
      expect(main).toContain(`require("${kept}")`);
    }
    const contracts = readdirSync('src/genesis/system-contracts/sources').sort();
    expect(readdirSync(join(out, 'sources')).sort()).toEqual(contracts);
    expect(readFileSync(join(out, 'examples.json'), 'utf8')).toBe(
      readFileSync('src/api-docs/examples.json', 'utf8'),
    );

    expect(inputs).toContain('src/main.ts');
    expect(inputs).toContain('src/vm/compiler.ts');
    expect(inputs).toContain('src/genesis/system-contracts/sources/MainCondition.sim');
    expect(inputs).toContain('src/api-docs/examples.json');
    expect(inputs).toContain('package-lock.json');
    expect(inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
    expect(inputs.filter((input) => input.endsWith('.spec.ts'))).toEqual([]);
  });

  it('compiles TypeScript as tsconfig.json says', () => {
    const { compilerOptions } = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    const tsTarget = String(compilerOptions.target).toLowerCase();
    const { target, transform } = SWC_OPTIONS.jsc;
    expect(target).toBe(tsTarget);
    expect(transform.legacyDecorator).toBe(compilerOptions.experimentalDecorators === true);
    expect(transform.decoratorMetadata).toBe(compilerOptions.emitDecoratorMetadata === true);
    // TypeScript's default: class fields are defined from ES2022 on.
    const definedByDefault = tsTarget === 'esnext' || Number(tsTarget.slice(2)) >= 2022;
    expect(transform.useDefineForClassFields).toBe(
      compilerOptions.useDefineForClassFields ?? definedByDefault,
    );
  });

  it('nest build and nest start --watch compile as the bundle does (nest-cli.json)', () => {
    const nest = JSON.parse(readFileSync('nest-cli.json', 'utf8')) as {
      sourceRoot: string;
      entryFile: string;
      compilerOptions: {
        builder: { type: string; options: { swcrcPath: string } };
        tsConfigPath: string;
        assets: { include: string }[];
      };
    };
    const { builder, tsConfigPath, assets } = nest.compilerOptions;
    expect(builder.type).toBe('swc');
    const swcrc = JSON.parse(readFileSync(builder.options.swcrcPath, 'utf8')) as { jsc: unknown };
    expect(SWC_OPTIONS.jsc).toEqual(swcrc.jsc);
    expect(`${nest.sourceRoot}/${nest.entryFile}.ts`).toBe('src/main.ts');
    // The contracts' sources and the API examples are read beside the compiled code: nest copies them as the
    // bundler does.
    expect(assets.map((asset) => `${nest.sourceRoot}/${asset.include}`)).toEqual(
      expect.arrayContaining(['src/genesis/system-contracts/sources/*.sim', 'src/api-docs/examples.json']),
    );
    const nestTsconfig = JSON.parse(readFileSync(tsConfigPath, 'utf8')) as { extends: string };
    expect(nestTsconfig.extends).toBe('./tsconfig.build.json');
  });

  it('is told apart by the content of the files it was built from', () => {
    const dir = newDataDir();
    dirs.push(dir);
    const file = relative(ROOT, join(dir, 'input.ts'));
    writeFileSync(join(ROOT, file), 'export const a = 1;\n');
    const first = digest(['package-lock.json', file]);
    expect(digest(['package-lock.json', file])).toBe(first);

    writeFileSync(join(ROOT, file), 'export const a = 2;\n');
    const edited = digest(['package-lock.json', file]);
    expect(edited).not.toBe(first);

    rmSync(join(ROOT, file));
    expect(digest(['package-lock.json', file])).not.toBe(edited);
    expect(digest(['package-lock.json', file])).not.toBe(first);
  });
});
