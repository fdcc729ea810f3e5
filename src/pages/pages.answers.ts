import { schema as s, type ValueOf } from '../api-docs/schema';

/**
 * The answers of the pages domain, each declared once as its schema: the API description shows it, and
 * the service and the handlers take their types from it (`ValueOf`).
 */

/** JSON text written into an answer as it is (a rendered tree). */
export class RawJson {
  constructor(readonly text: string) {}

  toGoJson(): string {
    return this.text;
  }
}

/** A rendered JSON tree, kept as the JSON text the renderer wrote. */
export const TREE = s.writtenAs<RawJson>(
  s.array(
    s.object(
      {
        tag: s.string(),
        attr: s.map(s.any(), 'attributes, keys sorted'),
        text: s.string(),
        children: s.array(s.any(), 'nodes'),
        tail: s.array(s.any(), 'nodes'),
      },
      { optional: ['attr', 'text', 'children', 'tail'] },
    ),
    'the rendered JSON tree',
  ),
);
/** A page and its menu (`content/page`, `getPage`), with Go's omitempty rules. */
export const PAGE_CONTENT = s.object(
  {
    menu: s.string("the page's menu"),
    menutree: TREE,
    tree: TREE,
    nodesCount: s.integer('validators needed'),
  },
  { optional: ['menu', 'menutree', 'nodesCount'] },
);
export type PageAnswer = ValueOf<typeof PAGE_CONTENT>;

/** A menu; `title` left out when empty. */
export const MENU_CONTENT = s.object({ title: s.string(), tree: TREE }, { optional: ['title'] });
export type MenuAnswer = ValueOf<typeof MENU_CONTENT>;

/** A tree alone: a page's structure, or any template rendered. */
export const TREE_ONLY = s.object({ tree: TREE });
export type TreeAnswer = ValueOf<typeof TREE_ONLY>;

export const HASH = s.object({ hash: s.hex('hash of the JSON of content/page, configured hasher') });
export type HashAnswer = ValueOf<typeof HASH>;

export const VALIDATORS = s.object({ validate_count: s.integer() });
export type ValidatorsAnswer = ValueOf<typeof VALIDATORS>;
