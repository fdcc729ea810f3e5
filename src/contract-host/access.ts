import {
  CompileError,
  panic,
  parseExpression,
  resolveContractKey,
  type BuiltinContext,
  type BuiltinDef,
  type Value,
} from '../vm';
import type { Expr } from '../vm/ast';
import { intArg, textArg } from './args';
import { allowed } from './permissions';
import { ecosystemOf, effectiveStack, hostOf } from './state';
import { namedTable } from './db';
import { resolveTable } from '../table-access/catalog';

/** True while one of the named contracts is the one executing (the writer's, inside a permission check). */
function contractAccess(ctx: BuiltinContext, ...names: Value[]): Value {
  const stack = effectiveStack(ctx);
  const current = stack[stack.length - 1];
  if (!current) return false;
  return names.some(
    (name) => resolveContractKey(textArg(name, 'contract name'), ctx.ecosystem || 1) === current,
  );
}

/**
 * The names ContractConditions is running the conditions of, per execution: a name met again is a loop
 * ("there is loop in A contract", the name as written), where the conditions would call each other forever.
 */
const runningConditions = new WeakMap<object, string[]>();

/** Runs each named contract's `conditions`; an error they raise is the caller's error. */
async function contractConditions(ctx: BuiltinContext, ...names: Value[]): Promise<Value> {
  const ecosystem = Number(ecosystemOf(ctx));
  for (const value of names) {
    const name = textArg(value, 'contract name');
    if (name === '') throw panic('empty contract name in ContractConditions');
    if (!ctx.vm.registry.getContract(resolveContractKey(name, ecosystem))) {
      throw panic(`Unknown contract ${name}`);
    }
    const running = runningConditions.get(ctx.tx) ?? [];
    if (running.includes(name)) throw panic(`there is loop in ${name} contract`);
    runningConditions.set(ctx.tx, running);
    running.push(name);
    try {
      await ctx.vm.runConditions(name, { tx: ctx.tx, ecosystem });
    } finally {
      running.pop();
    }
  }
  return true;
}

/** The caller holds one of the roles. */
async function roleAccess(ctx: BuiltinContext, ...ids: Value[]): Promise<Value> {
  if (ids.length === 0) return false;
  const host = hostOf(ctx);
  const roleIds = ids.map((id) => intArg(id, 'role id').toString());
  const row = await host.sql.one(
    `SELECT 1 FROM "1_roles_participants"
      WHERE "ecosystem" = $1 AND "deleted" = 0 AND "member"->>'account' = $2 AND "role"->>'id' = ANY($3::text[])`,
    [ecosystemOf(ctx).toString(), host.caller.account, roleIds],
  );
  return row !== undefined;
}

const CONDITION_FUNCTIONS = new Set(['ContractConditions', 'ContractAccess', 'RoleAccess']);

/** A stored condition may only combine 0, 1, true, false and the three access functions (engines.md §1.11). */
function checkConditionShape(expr: Expr): void {
  switch (expr.kind) {
    case 'literal':
      if (expr.value === true || expr.value === false || expr.value === 0n || expr.value === 1n) return;
      break;
    case 'unary':
      if (expr.operator === '!') return checkConditionShape(expr.operand);
      break;
    case 'binary':
      if (expr.operator === '&&' || expr.operator === '||') {
        checkConditionShape(expr.left);
        return checkConditionShape(expr.right);
      }
      break;
    case 'call':
      if (!expr.prefixed && CONDITION_FUNCTIONS.has(expr.name) && expr.tails.length === 0) {
        const literalArgs = expr.args.every(
          (arg) =>
            !arg.spread &&
            arg.expr.kind === 'literal' &&
            ['string', 'bigint'].includes(typeof arg.expr.value),
        );
        if (literalArgs && expr.args.length > 0) return;
      }
      break;
  }
  throw panic(`condition ${JSON.stringify(expr)} is not allowed`.slice(0, 140));
}

export function validateConditionText(condition: string): void {
  const trimmed = condition.trim();
  if (trimmed === '') throw panic('conditions is empty');
  let expr: Expr;
  try {
    expr = parseExpression(trimmed);
  } catch (error) {
    // The reference checks a condition's form before compiling it, so text that does not parse is refused
    // with the same words as a form it does not allow.
    if (error instanceof CompileError) throw panic(`condition ${trimmed} is not allowed`);
    throw error;
  }
  try {
    checkConditionShape(expr);
  } catch {
    // The reference's text; the forms allowed: 0, 1, true, false, ContractConditions, ContractAccess, RoleAccess.
    throw panic(`condition ${trimmed} is not allowed`);
  }
}

function validateCondition(_ctx: BuiltinContext, condition: Value, _ecosystem: Value = null): Value {
  validateConditionText(textArg(condition, 'condition'));
  return null;
}

/** The ecosystem parameter that says who may change rows of each kind. */
const CHANGE_PARAMETER: Record<string, string> = {
  pages: 'changing_page',
  menu: 'changing_menu',
  contracts: 'changing_contracts',
  snippets: 'changing_snippets',
  languages: 'changing_language',
  parameters: 'changing_parameters',
  app_params: 'changing_app_params',
  tables: 'changing_tables',
};

async function allowChange(ctx: BuiltinContext, tableName: string): Promise<void> {
  const parameter = CHANGE_PARAMETER[tableName];
  if (!parameter) return;
  const row = await hostOf(ctx).sql.one<{ value: string }>(
    'SELECT "value" FROM "1_parameters" WHERE "ecosystem" = $1 AND "name" = $2',
    [ecosystemOf(ctx).toString(), parameter],
  );
  if (row && row.value.trim() && !(await allowed(ctx, row.value))) throw panic('access denied');
}

async function allowChangeCondition(ctx: BuiltinContext, table: Value): Promise<Value> {
  await allowChange(ctx, textArg(table, 'table name').replace(/^@\d+/, '').toLowerCase());
  return true;
}

/** RowConditions(table, id, onlyConditions): the row's own `conditions` (and the changing_* parameter). */
async function rowConditions(
  ctx: BuiltinContext,
  tableArg: Value,
  idArg: Value,
  onlyConditions: Value = false,
): Promise<Value> {
  const host = hostOf(ctx);
  const table = namedTable(ctx, tableArg);
  const id = intArg(idArg, 'id');
  const params: unknown[] = [id.toString()];
  let where = '"id" = $1';
  if (table.shared) {
    params.push(table.ecosystem.toString());
    where += ' AND "ecosystem" = $2';
  }
  const columns = await host.catalog.columns(table.physical);
  if (!columns?.has('conditions')) throw panic(`table ${table.name} has no conditions`);
  const row = await host.sql.one<{ conditions: string }>(
    `SELECT "conditions" FROM "${table.physical}" WHERE ${where}`,
    params,
  );
  // A missing row and an empty condition are the same to the reference: "item N has not been found".
  if (!row?.conditions.trim()) throw panic(`item ${id} has not been found`);
  if (onlyConditions !== true) await allowChange(ctx, table.name);
  if (!(await allowed(ctx, row.conditions))) throw panic('access denied');
  return true;
}

async function evalBuiltin(ctx: BuiltinContext, condition: Value): Promise<Value> {
  const textValue = textArg(condition, 'condition');
  if (!textValue.trim()) throw panic('the condition is empty');
  return allowed(ctx, textValue);
}

/** EvalCondition(table, name, column): the condition stored in a row (by name) must hold. */
async function evalCondition(
  ctx: BuiltinContext,
  tableArg: Value,
  nameArg: Value,
  columnArg: Value,
): Promise<Value> {
  const host = hostOf(ctx);
  const table = resolveTable(textArg(tableArg, 'table name'), ecosystemOf(ctx));
  const columns = await host.catalog.require(table);
  const column = columns.get(textArg(columnArg, 'column').toLowerCase());
  if (!column || !columns.has('name')) throw panic(`unknown column ${String(columnArg)}`);
  const params: unknown[] = [textArg(nameArg, 'name')];
  let where = '"name" = $1';
  if (table.shared) {
    params.push(table.ecosystem.toString());
    where += ' AND "ecosystem" = $2';
  }
  const row = await host.sql.one<Record<string, string>>(
    `SELECT "${column.name}"::text AS "value" FROM "${table.physical}" WHERE ${where}`,
    params,
  );
  if (!row?.value) throw panic(`Record ${String(nameArg)} has not been found`);
  if (!(await allowed(ctx, row.value))) throw panic('access denied');
  return true;
}

export const ACCESS_BUILTINS: BuiltinDef[] = [
  { name: 'ContractAccess', fn: contractAccess, params: [1, Infinity], async: false, price: 5 },
  { name: 'ContractConditions', fn: contractConditions, params: [1, Infinity] },
  { name: 'RoleAccess', fn: roleAccess, params: [1, Infinity] },
  { name: 'ValidateCondition', fn: validateCondition, params: [1, 2], async: false },
  { name: 'AllowChangeCondition', fn: allowChangeCondition, params: 1 },
  { name: 'RowConditions', fn: rowConditions, params: [2, 3] },
  { name: 'Eval', fn: evalBuiltin, params: 1 },
  { name: 'EvalCondition', fn: evalCondition, params: 3 },
];
