import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the params domain, each declared once as its schema: the API description shows it, and the
 * service takes its types from it (`ValueOf`).
 */

/** A parameter as both protocols list it: every member a string (the id too). */
export const PARAMETER = s.object({
  id: s.decimalString(),
  name: s.string(),
  value: s.string(),
  conditions: s.string('the condition that guards changes'),
});
export type ParameterEntry = ValueOf<typeof PARAMETER>;

const APP_OBJECTS = s.array(s.object({ id: s.integer(), name: s.string() }));

/** What an application holds: its snippets, pages and contracts. */
export const APP_CONTENT = s.object({ snippets: APP_OBJECTS, pages: APP_OBJECTS, contracts: APP_OBJECTS });
export type AppContent = ValueOf<typeof APP_CONTENT>;
