import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the interface domain, each declared once as its schema: the API description shows it, and
 * the code that makes the answer takes its type from it (`ValueOf`). A page's and a snippet's answers leave
 * out empty members (Go's omitempty) and rename one: the api file shapes them from the rows.
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

/** `interface/page/:name`, `getPageRow`: a page's row, empty members left out. */
export const PAGE = s.object(
  {
    id: s.integer(),
    name: s.string(),
    value: s.string('template source'),
    menu: s.string(),
    nodesCount: s.integer('validators needed'),
    app_id: s.integer(),
    conditions: s.string(),
  },
  { optional: ['id', 'name', 'value', 'menu', 'nodesCount', 'app_id', 'conditions'] },
);
export type PageRowAnswer = ValueOf<typeof PAGE>;

/** `interface/snippet/:name`, `getSnippetRow`: a snippet's row, empty members left out. */
export const SNIPPET = s.object(
  { id: s.integer(), name: s.string(), value: s.string('template source'), conditions: s.string() },
  { optional: ['id', 'name', 'value', 'conditions'] },
);
export type SnippetRowAnswer = ValueOf<typeof SNIPPET>;
