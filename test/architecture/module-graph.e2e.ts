import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger, type Type } from '@nestjs/common';
import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { Module as NestModule } from '@nestjs/core/injector/module';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config';
import { RPC_METHOD_METADATA } from '../../src/rpc/rpc-method.decorator';
import { newDataDir } from '../support/node';

/**
 * The Nest module graph, as Nest itself builds it (preview mode: scanned and resolved, nothing started).
 * Domain modules import one another without a cycle; the global modules (configuration, logging, database,
 * the request core) import no domain; every controller and every provider of `@RpcMethod`s in `src/` is
 * registered in exactly one module — an RPC provider left out would otherwise be silently missing.
 */

const SRC = resolve(__dirname, '../../src');
let modules: NestModule[];
let appModule: NestModule;
let dataDir: string;

/** Every class of `src/` that Nest serves when registered: controllers and RPC method providers. */
async function servingClasses(): Promise<{ controllers: Type[]; rpcProviders: Type[] }> {
  const controllers: Type[] = [];
  const rpcProviders: Type[] = [];
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
  );
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    if (!text.includes('@Controller(') && !text.includes('@RpcMethod(')) continue;
    const exports = (await import(join(SRC, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value !== 'function') continue;
      const type = value as Type;
      if (Reflect.getMetadata(PATH_METADATA, type) !== undefined) controllers.push(type);
      const methods = Object.getOwnPropertyNames(type.prototype ?? {});
      const prototype = type.prototype as Record<string, unknown>;
      if (methods.some((name) => name !== 'constructor' && hasRpcMethod(prototype, name))) {
        rpcProviders.push(type);
      }
    }
  }
  return { controllers, rpcProviders };
}

function hasRpcMethod(prototype: Record<string, unknown>, name: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
  return (
    typeof descriptor?.value === 'function' &&
    Reflect.getMetadata(RPC_METHOD_METADATA, descriptor.value) !== undefined
  );
}

/** The module classes of `src/` (the others come from packages: TypeORM's, the logger's). */
async function sourceModules(): Promise<Set<unknown>> {
  const found = new Set<unknown>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.module.ts'),
  );
  for (const file of files) {
    for (const value of Object.values((await import(join(SRC, file))) as Record<string, unknown>)) {
      if (typeof value === 'function') found.add(value);
    }
  }
  return found;
}

/** Modules a module imports, without the global ones Nest links to every module. */
function ownImports(module: NestModule): NestModule[] {
  return [...module.imports].filter((imported) => !imported.isGlobal);
}

function findCycle(): string[] | undefined {
  const state = new Map<NestModule, 'visiting' | 'done'>();
  const path: NestModule[] = [];
  const visit = (module: NestModule): string[] | undefined => {
    if (state.get(module) === 'done') return undefined;
    if (state.get(module) === 'visiting') {
      return [...path.slice(path.indexOf(module)), module].map((m) => m.metatype.name);
    }
    state.set(module, 'visiting');
    path.push(module);
    for (const imported of ownImports(module)) {
      const cycle = visit(imported);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(module, 'done');
    return undefined;
  };
  for (const module of modules) {
    const cycle = visit(module);
    if (cycle) return cycle;
  }
  return undefined;
}

beforeAll(async () => {
  dataDir = newDataDir();
  // With the test switches on: their RPC provider is registered only then, and must have its module.
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NODE_MODE: 'clb',
    NETWORK_TEST_SWITCHES: 'true',
  });
  const context = await NestFactory.createApplicationContext(
    AppModule.register(config, pino({ level: 'silent' })),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  modules = [...context.get(ModulesContainer).values()];
  appModule = modules.find((module) => module.metatype === AppModule)!;
  Logger.flush();
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the module graph', () => {
  it('has no cycle', () => {
    expect(findCycle()).toBeUndefined();
  });

  it('the check finds a cycle when there is one', () => {
    const [first, second] = modules.filter((module) => !module.isGlobal && module !== appModule);
    first.imports.add(second);
    second.imports.add(first);
    try {
      expect(findCycle()).toBeDefined();
    } finally {
      first.imports.delete(second);
      second.imports.delete(first);
    }
  });

  it('global modules import no domain module', async () => {
    const ours = await sourceModules();
    for (const module of modules.filter((m) => m.isGlobal)) {
      const domains = ownImports(module).filter((imported) => ours.has(imported.metatype));
      expect(
        domains.map((m) => m.metatype.name),
        module.metatype.name,
      ).toEqual([]);
    }
  });

  it('AppModule only imports modules', () => {
    expect(appModule.controllers.size).toBe(0);
    const ownProviders = [...appModule.providers.keys()].filter(
      (token) =>
        token !== AppModule &&
        typeof token === 'function' &&
        !/^(ModuleRef|ApplicationConfig)$/.test(token.name),
    );
    expect(ownProviders).toEqual([]);
    expect(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, AppModule)).toBeUndefined();
  });

  it('every controller and every RPC provider in src/ is registered in exactly one module', async () => {
    const { controllers, rpcProviders } = await servingClasses();
    expect(controllers.length).toBeGreaterThan(10);
    expect(rpcProviders.length).toBeGreaterThan(10);
    const homes = (type: Type, kind: 'controllers' | 'providers') =>
      modules.filter((module) => module[kind].has(type)).map((module) => module.metatype.name);
    for (const controller of controllers) {
      expect(homes(controller, 'controllers'), controller.name).toHaveLength(1);
    }
    for (const provider of rpcProviders) {
      expect(homes(provider, 'providers'), provider.name).toHaveLength(1);
    }
  });
});
