import {
  CONTRACT_ID_OFFSET,
  resolveContractKey,
  type BuiltinContext,
  type BuiltinDef,
  type Value,
} from '../vm';
import { platformParameter } from '../chain/platform-parameters.service';
import { intArg, textArg } from './args';
import { ecosystemOf, hostOf } from './state';

async function ecosysParam(ctx: BuiltinContext, name: Value): Promise<Value> {
  const row = await hostOf(ctx).sql.one<{ value: string }>(
    'SELECT "value" FROM "1_parameters" WHERE "ecosystem" = $1 AND "name" = $2',
    [ecosystemOf(ctx).toString(), textArg(name, 'parameter name')],
  );
  return row?.value ?? '';
}

async function appParam(
  ctx: BuiltinContext,
  appId: Value,
  name: Value,
  ecosystem: Value = null,
): Promise<Value> {
  const row = await hostOf(ctx).sql.one<{ value: string }>(
    'SELECT "value" FROM "1_app_params" WHERE "ecosystem" = $1 AND "app_id" = $2 AND "name" = $3',
    [
      (ecosystem === null ? ecosystemOf(ctx) : intArg(ecosystem, 'ecosystem')).toString(),
      intArg(appId, 'application id').toString(),
      textArg(name, 'parameter name'),
    ],
  );
  return row?.value ?? '';
}

async function platformParameterText(ctx: BuiltinContext, name: Value): Promise<string> {
  return (await platformParameter(hostOf(ctx).sql, textArg(name, 'parameter name'))) ?? '';
}

async function sysParamInt(ctx: BuiltinContext, name: Value): Promise<Value> {
  const value = (await platformParameterText(ctx, name)).trim();
  return /^-?\d+$/.test(value) ? BigInt(value) : 0n;
}

/** The language resource `label` of the caller's ecosystem in the transaction's language, else the label. */
async function langRes(ctx: BuiltinContext, label: Value, lang: Value = null): Promise<Value> {
  const host = hostOf(ctx);
  const row = await host.sql.one<{ res: string }>(
    'SELECT "res" FROM "1_languages" WHERE "ecosystem" = $1 AND "name" = $2',
    [ecosystemOf(ctx).toString(), textArg(label, 'label')],
  );
  if (!row) return label;
  let translations: Record<string, unknown>;
  try {
    translations = JSON.parse(row.res) as Record<string, unknown>;
  } catch {
    return label;
  }
  const wanted = (typeof lang === 'string' && lang ? lang : host.lang || 'en').toLowerCase();
  for (const code of [wanted, wanted.slice(0, 2), 'en']) {
    if (typeof translations[code] === 'string' && translations[code]) return translations[code] as string;
  }
  const any = Object.values(translations).find((value) => typeof value === 'string' && value);
  return typeof any === 'string' ? any : label;
}

function getContractByName(ctx: BuiltinContext, name: Value): Value {
  const contract = ctx.vm.registry.getContract(
    resolveContractKey(textArg(name, 'contract name'), ctx.ecosystem),
  );
  const tableId = contract?.meta.tableId ?? 0;
  return tableId > 0 ? BigInt(tableId + CONTRACT_ID_OFFSET) : 0n;
}

function getContractById(ctx: BuiltinContext, id: Value): Value {
  const number = Number(intArg(id, 'contract id'));
  return ctx.vm.registry.getById(number)?.name ?? '';
}

function isObject(ctx: BuiltinContext, name: Value, ecosystem: Value): Value {
  const key = resolveContractKey(textArg(name, 'name'), Number(intArg(ecosystem, 'ecosystem')));
  return ctx.vm.registry.has(key);
}

export const PARAM_BUILTINS: BuiltinDef[] = [
  { name: 'EcosysParam', fn: ecosysParam, params: 1 },
  { name: 'AppParam', fn: appParam, params: [2, 3] },
  { name: 'SysParamString', fn: platformParameterText, params: 1 },
  { name: 'SysParamInt', fn: sysParamInt, params: 1 },
  { name: 'LangRes', fn: langRes, params: [1, 2] },
  { name: 'GetContractByName', fn: getContractByName, params: 1, async: false },
  { name: 'GetContractById', fn: getContractById, params: 1, async: false },
  { name: 'IsObject', fn: isObject, params: 2, async: false },
];
