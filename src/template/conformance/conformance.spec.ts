import { describe, expect, it } from 'vitest';
import { renderTemplateJson } from '..';
import { FakePort } from './fake-port';
import { databaseCases } from './database.cases';
import { functionCases } from './functions.cases';
import { macroCases } from './macros.cases';
import { referenceCases } from './reference.cases';
import { sourceCases } from './source.cases';
import type { TemplateCase } from './types';

const suites: Record<string, TemplateCase[]> = {
  reference: referenceCases,
  database: databaseCases,
  functions: functionCases,
  source: sourceCases,
  macros: macroCases,
};

/** The request variables every case starts from (a logged-in key in ecosystem 1). */
const BASE_VARS: Record<string, string> = {
  _full: '0',
  ecosystem_id: '1',
  key_id: '-110277540701013350',
  account_id: '1833-6466-5330-0853-8266',
  role_id: '0',
  lang: 'en',
};

async function run(testCase: TemplateCase): Promise<string> {
  return renderTemplateJson(testCase.template, {
    port: new FakePort(),
    vars: { ...(testCase.bare ? { _full: '0' } : BASE_VARS), ...testCase.vars },
    source: testCase.source,
    limits: testCase.limits,
  });
}

describe('template conformance', () => {
  it('has at least 150 pairs', () => {
    expect(Object.values(suites).flat().length).toBeGreaterThanOrEqual(150);
  });
  for (const [suite, cases] of Object.entries(suites)) {
    describe(suite, () => {
      for (const testCase of cases) {
        it(testCase.name, async () => {
          if (testCase.error) {
            await expect(run(testCase)).rejects.toThrow(expect.objectContaining({ name: testCase.error }));
          } else {
            expect(await run(testCase)).toBe(testCase.want);
          }
        });
      }
    });
  }
});
