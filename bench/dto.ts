/**
 * What reading a request's input as its DTO costs, per request, without HTTP or a database: the REST
 * reads of the measured routes (`row`, `list`, `listWhere`, `content/page`) and the JSON-RPC params of
 * `ibax.getBlockInfo` and `ibax.maxBlockId` (none), each run ITERATIONS times after a warm-up.
 *
 *   npm run bench:dto
 */
import 'reflect-metadata';
import { parse } from 'lossless-json';
import type { ApiRequest } from '../src/http/api-request';
import { readForm } from '../src/http/form';
import type { DtoClass } from '../src/common/dto/dto-fields';
import { BlockIdParams } from '../src/blocks/blocks.dto';
import { PageForm } from '../src/pages/pages.dto';
import { decodeDtoParams, NoParams } from '../src/rpc/rpc-params';
import { ListForm, ListWhereForm, RowForm } from '../src/tables/tables.dto';

const ITERATIONS = Number(process.env.ITERATIONS ?? 1_000_000);

function request(params: Record<string, string>, query: Record<string, string>, body: object = {}) {
  return { params, query, body } as unknown as ApiRequest;
}

const cases: [string, () => unknown][] = [
  ['GET row/bench_items/7', () => readForm(RowForm, request({ name: 'bench_items', id: '7' }, {}))],
  [
    'GET list/bench_items?limit=25',
    () => readForm(ListForm, request({ name: 'bench_items' }, { limit: '25' })),
  ],
  [
    'POST listWhere/bench_items (where, order, limit)',
    () =>
      readForm(
        ListWhereForm,
        request({ name: 'bench_items' }, {}, { where: '{"qty": {"$gt": 10}}', order: 'qty', limit: '25' }),
      ),
  ],
  ['POST content/page/bench_page', () => readForm(PageForm, request({ name: 'bench_page' }, {}))],
  [
    'ibax.getBlockInfo [1]',
    (() => {
      const params = parse('[1]');
      return () => decodeDtoParams(BlockIdParams as DtoClass, params, false);
    })(),
  ],
  [
    'ibax.maxBlockId []',
    (() => {
      const params = parse('[]');
      return () => decodeDtoParams(NoParams, params, false);
    })(),
  ],
];

for (const [name, read] of cases) {
  for (let i = 0; i < ITERATIONS / 10; i++) read();
  const started = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) read();
  const ns = Number(process.hrtime.bigint() - started) / ITERATIONS;
  console.log(`| ${name} | ${ns.toFixed(0)} ns |`);
}
