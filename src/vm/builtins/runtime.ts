import { resolveContractKey } from '../compiler';
import { panic } from '../errors';
import { goTypeName, type Value } from '../values';
import { textOf } from './budget';
import type { BuiltinDef } from './registry';
import { expectString } from './strings';

export const runtimeBuiltins: BuiltinDef[] = [
  {
    name: 'CallContract',
    params: 2,
    fn: async (ctx, name, params) => {
      const contract = expectString(name, 'CallContract');
      if (params !== null && !(params instanceof Map)) {
        throw panic(`CallContract: parameter 2 must be map, got ${goTypeName(params)}`);
      }
      return ctx.callContract(contract, params ?? new Map());
    },
  },
  {
    name: 'Settings',
    async: false,
    params: 2,
    fn: (ctx, contractName, settingName) => {
      const key = resolveContractKey(expectString(contractName, 'Settings'), ctx.ecosystem);
      const contract = ctx.vm.registry.getContract(key);
      if (!contract) throw panic(`unknown contract ${key}`);
      const name = expectString(settingName, 'Settings', 2);
      // A setting the contract does not declare reads as "", as in the reference.
      return contract.settings.get(name) ?? '';
    },
  },
  {
    name: 'Println',
    async: true,
    params: [0, Infinity],
    fn: (ctx, ...args: Value[]) => {
      const log = ctx.vm.log;
      if (log) log(args.map((arg) => textOf(ctx, arg)).join(' '));
    },
  },
  {
    name: 'MemoryUsage',
    async: false,
    params: 0,
    fn: (ctx) => BigInt(ctx.measureMemory()),
  },
];
