import { beforeAll, expect, it } from 'vitest';
import { GENESIS_LANGUAGES, GENESIS_PAGES } from '../../src/genesis/genesis-pages';
import type { TemplateNode } from '../../src/template';
import { useTestNode, type TestNode } from '../support/node';

/**
 * A fresh node shows a working home page, menu and a page per system table: every page and menu of ecosystem 1
 * renders for the founder without an error in its tree, its data sources find rows, and its labels are
 * translated.
 */
const running = useTestNode();
let node: TestNode;

/** Texts the page engine shows where a function failed. */
const ERROR_TEXT =
  /Access denied|has not been found|does not exist|not valid|wrong format|unexpected|unknown|invalid|denied|error/i;

function* walk(nodes: readonly TemplateNode[] | undefined): Generator<TemplateNode> {
  for (const item of nodes ?? []) {
    yield item;
    yield* walk(item.children);
    yield* walk(item.tail);
  }
}

function problems(tree: TemplateNode[]): string[] {
  const found: string[] = [];
  for (const item of walk(tree)) {
    if (item.tag === 'text' && ERROR_TEXT.test(item.text ?? '')) found.push(`text: ${item.text}`);
    for (const [name, value] of Object.entries(item.attr ?? {})) {
      // A label left unexpanded names a resource genesis lacks (menugroup keeps its raw title as `name`).
      if (
        typeof value === 'string' &&
        /\$@?\d*\w+\$/.test(value) &&
        !(item.tag === 'menugroup' && name === 'name')
      )
        found.push(`${item.tag}.${name}: ${value}`);
    }
    if (item.tag === 'text' && /\$@?\d*\w+\$|#\w+#/.test(item.text ?? '')) found.push(`text: ${item.text}`);
  }
  return found;
}

beforeAll(async () => {
  node = running.node;
  await node.client.login(node.founderKey);
});

it('every genesis page renders with its menu, without an error, in English and French', async () => {
  const names = [...GENESIS_PAGES.map((page) => page.name), 'developer_index'];
  expect(names).toEqual(
    expect.arrayContaining(['default_page', 'notifications', 'system_keys', 'system_pages']),
  );
  for (const lang of ['en', 'fr']) {
    for (const name of names) {
      // The menu passes limit=25; without it the pages choose 25 themselves.
      const form: Record<string, string> = lang === 'fr' ? { lang, limit: '25' } : { lang };
      const answer = await node.client.postForm(`/api/v2/content/page/${name}`, form);
      expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBe(200);
      const { tree, menutree } = answer.body as { tree: TemplateNode[]; menutree: TemplateNode[] };
      expect(problems(tree), `${name} (${lang})`).toEqual([]);
      expect(problems(menutree), `menu of ${name} (${lang})`).toEqual([]);
      expect(menutree.length, `menu of ${name}`).toBeGreaterThan(0);
      for (const find of walk(tree)) {
        if (find.tag !== 'dbfind' || name === 'notifications') continue;
        expect(
          (find.attr.data as unknown[]).length,
          `${name}: ${String(find.attr.name)} found rows`,
        ).toBeGreaterThan(0);
      }
    }
  }
});

it('the home page links to every system table page, and each of those shows its table', async () => {
  const home = await node.client.postForm('/api/v2/content/page/default_page', { lang: 'en' });
  const links = [...walk(home.body.tree)]
    .filter((item) => item.tag === 'linkpage')
    .map((item) => item.attr.page);
  const tablePages = GENESIS_PAGES.map((page) => page.name).filter((name) => name.startsWith('system_'));
  expect(links).toEqual(expect.arrayContaining(tablePages));
  const texts = [...walk(home.body.tree)].map((item) => item.text ?? '').join(' ');
  expect(texts).toContain('Welcome to platform ecosystem');
  expect(texts).toContain(node.client.accountOf(node.founderKey));

  const keys = await node.client.postForm('/api/v2/content/page/system_keys', { lang: 'fr' });
  const table = [...walk(keys.body.tree)].find((item) => item.tag === 'table');
  expect(table?.attr.columns).toEqual([
    { Name: 'account', Title: 'Compte' },
    { Name: 'amount', Title: 'Amount' },
    { Name: 'blocked', Title: 'Blocked' },
  ]);
  const found = [...walk(keys.body.tree)].find((item) => item.tag === 'dbfind');
  expect(found?.attr.count).toBe(String((found?.attr.data as unknown[]).length));
});

it('the default menu is served by content/menu, and the home page hashes anonymously', async () => {
  const menu = await node.client.postForm('/api/v2/content/menu/default_menu', { lang: 'fr' });
  expect(menu.status).toBe(200);
  expect(menu.body.title).toBe('Home');
  const group = (menu.body.tree as TemplateNode[]).find((item) => item.tag === 'menugroup');
  expect(group?.attr.title).toBe('Tables système');
  expect(group?.children?.map((item) => item.attr.page)).toEqual(
    GENESIS_PAGES.map((page) => page.name).filter((name) => name.startsWith('system_')),
  );
  const hash = await node.client.postForm(
    '/api/v2/content/hash/default_page',
    { ecosystem: '1' },
    { token: null },
  );
  expect(hash.body.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(GENESIS_LANGUAGES.every((language) => language.res.en && language.res.fr)).toBe(true);
});

it('the sections a client starts from point to pages that exist', async () => {
  const sections = await node.client.get('/api/v2/sections');
  for (const section of sections.body.list as { page: string }[]) {
    const page = await node.client.postForm(`/api/v2/content/page/${section.page}`, {});
    expect(page.status, section.page).toBe(200);
  }
  // Weaver opens this page right after login.
  expect((await node.client.postForm('/api/v2/content/page/@1notifications', {})).status).toBe(200);
});

/**
 * Weaver sends a button's contract with the values of its `Params`: text as it is, `Val(name)` as the form
 * field's value, and nothing else (a value that parses as any other function is dropped). So every contract
 * button of every genesis page must give each required parameter of its contract as text or `Val`, naming a
 * form input the page has.
 */
it("every genesis page's contract buttons send each required parameter in a form Weaver sends", async () => {
  const names = [...GENESIS_PAGES.map((page) => page.name), 'developer_index'];
  const checked: string[] = [];
  for (const name of names) {
    const answer = await node.client.postForm(`/api/v2/content/page/${name}`, { lang: 'en' });
    const { tree } = answer.body as { tree: TemplateNode[] };
    const inputs = new Set(
      [...walk(tree)].filter((item) => item.tag === 'input').map((item) => item.attr.name),
    );
    for (const button of walk(tree)) {
      const contract = button.attr?.contract;
      if (typeof contract !== 'string' || !contract) continue;
      const described = await node.client.get(`/api/v2/contract/${encodeURIComponent(contract)}`);
      expect(described.status, `${name}: contract ${contract}`).toBe(200);
      const fields = described.body.fields as { name: string; optional: boolean }[];
      const params = (button.attr.params ?? {}) as Record<string, { type: string; params?: string[] }>;
      for (const field of fields.filter((each) => !each.optional)) {
        const param = params[field.name];
        const where = `${name}: ${contract} parameter ${field.name}`;
        expect(param, `${where} is sent`).toBeDefined();
        expect(['text', 'Val'], `${where} is text or Val(…), not ${param.type}`).toContain(param.type);
        if (param.type === 'Val')
          expect(inputs, `${where}: Val(${param.params?.[0]}) names an input`).toContain(param.params?.[0]);
      }
      checked.push(`${name}: ${contract}`);
    }
  }
  expect(checked).toEqual(
    expect.arrayContaining(['system_parameters: @1NewParameter', 'system_languages: @1NewLang']),
  );
});

/**
 * What a user types into an input the page leaves empty. Inputs with a value keep the value the page
 * renders: that is what Weaver sends when the user only fills in the rest.
 */
const TYPED: Record<string, (run: string) => string> = {
  Name: (run) => `button_${run}`,
  Value: () => 'typed value',
  Trans: () => '{"en": "typed", "fr": "tapé"}',
};

it("every genesis page's form button, sent with the values the page renders, lands", async () => {
  const landed: string[] = [];
  for (const name of [...GENESIS_PAGES.map((page) => page.name), 'developer_index']) {
    const answer = await node.client.postForm(`/api/v2/content/page/${name}`, { lang: 'en' });
    const tree = answer.body.tree as TemplateNode[];
    const inputs = new Map(
      [...walk(tree)]
        .filter((item) => item.tag === 'input')
        .map((item) => [item.attr.name, item.attr] as const),
    );
    for (const button of walk(tree)) {
      const contract = button.attr?.contract;
      if (typeof contract !== 'string' || !contract) continue;
      const params = (button.attr.params ?? {}) as Record<
        string,
        { type: string; text?: string; params?: string[] }
      >;
      const fromInputs = Object.values(params).filter((param) => param.type === 'Val');
      // A button acting on a row the page lists (NotificationsClose) has no form of its own to fill in.
      if (fromInputs.some((param) => !TYPED[param.params![0]] && !inputs.get(param.params![0])?.value))
        continue;
      const args: Record<string, string> = {};
      for (const [field, param] of Object.entries(params)) {
        if (param.type === 'text') {
          args[field] = param.text ?? '';
        } else {
          const input = param.params![0];
          args[field] = String(inputs.get(input)?.value || TYPED[input](String(landed.length)));
        }
      }
      const { status } = await node.client.call(node.founderKey, contract, args);
      expect(status.errmsg, `${name}: ${contract} ${JSON.stringify(args)}`).toBeUndefined();
      landed.push(`${name}: ${contract}`);
    }
  }
  expect(landed).toEqual(
    expect.arrayContaining(['system_parameters: @1NewParameter', 'system_languages: @1NewLang']),
  );
});
