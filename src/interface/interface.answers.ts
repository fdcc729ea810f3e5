import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the interface domain that the service gives as they are, each declared once as its
 * schema: the API description shows it, and the service takes its type from it (`ValueOf`). A page's and a
 * snippet's answers leave out empty members (Go's omitempty) and rename one: the api file shapes them.
 */

/** `sections`: the ecosystem's visible sections, a page of them. */
export const SECTIONS = s.object({
  count: s.integer('visible sections of the ecosystem, before role filtering'),
  list: s.nullable(
    s.array(
      s.map(
        s.string(),
        'a section, every value as text: ecosystem, id, page, roles_access, status, title, urlname, default_page',
      ),
    ),
  ),
});
export type SectionsPage = ValueOf<typeof SECTIONS>;

/** `interface/menu/:name`, `getMenuRow`: a menu as stored. */
export const MENU = s.object({
  id: s.integer(),
  name: s.string(),
  title: s.string(),
  value: s.string('template source'),
  conditions: s.string(),
});
export type MenuRow = ValueOf<typeof MENU>;
