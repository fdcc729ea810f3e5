import { describe, expect, it } from 'vitest';
import { HeavyPageError, pickLanguage, renderTemplate, renderTemplateJson, type TemplatePort } from '.';
import { FUNCTIONS } from './catalog';
import { FakePort } from './conformance/fake-port';
import { IMPLEMENTATIONS } from './functions';

const VARS = { _full: '0', ecosystem_id: '1', key_id: '5', lang: 'en' };

/** A port that fails the test if anything is read. */
const silentPort = new Proxy({} as TemplatePort, {
  get: (_target, name) => () => {
    throw new Error(`port.${String(name)} was called`);
  },
});

describe('template library', () => {
  it('declares the 55 functions, each with a handler', () => {
    expect(FUNCTIONS.size).toBe(55);
    for (const name of FUNCTIONS.keys()) expect(IMPLEMENTATIONS.has(name), name).toBe(true);
  });

  it('reads nothing through the port in source mode', async () => {
    const template =
      'DBFind(members, s).Where({id: 1})EcosysParam(a)AppParam(a, 1)SysParam(a)Include(x)Binary(1, a, b)' +
      'GetHistory(h, t, 1)GetColumnType(t, c)TransactionInfo(h)Money(1)LangRes(a)Span($a$)DateTime(2020-01-01)';
    const tree = await renderTemplate(template, { port: silentPort, vars: VARS, source: true });
    expect(tree.map((node) => node.tag)).toContain('dbfind');
  });

  it('passes DBFind parameters to the port as data', async () => {
    const port = new FakePort();
    await renderTemplate(
      'SetVar(n, 7)DBFind(members).Columns("name, data->city").Where({$or: [{id: #n#}, {name: {$like: "o"}}]})' +
        '.Order([name, {id: -1}]).Limit(50000).Offset(2).Count(c).Cutoff(note,name)',
      { port, vars: VARS },
    );
    expect(port.queries).toEqual([
      {
        ecosystem: '1',
        table: 'members',
        columns: ['name', 'data->city', 'id'],
        where: { $or: [{ id: '7' }, { name: { $like: 'o' } }] },
        order: ['name', { id: '-1' }],
        limit: 10_000,
        offset: 2,
        count: true,
        cutoff: ['note', 'name'],
      },
    ]);
  });

  it('forces one row for Vars and turns WhereId into an id condition', async () => {
    const port = new FakePort();
    await renderTemplate('DBFind(members).WhereId(3x).Vars(p)', { port, vars: VARS });
    expect(port.queries[0]).toMatchObject({ where: { id: '0' }, limit: 1, columns: ['*'] });
  });

  it('throws a typed heavy-page error naming the budget', async () => {
    const render = renderTemplate('Range(r, 0, 50)ForList(r){Span(#id#)}', {
      port: new FakePort(),
      vars: VARS,
      limits: { maxNodes: 20 },
    });
    await expect(render).rejects.toBeInstanceOf(HeavyPageError);
    await expect(render).rejects.toMatchObject({ limit: 'nodes', message: 'This page is heavy' });
    const fine = await renderTemplateJson('Range(r, 0, 50)ForList(r){Span(#id#)}', {
      port: new FakePort(),
      vars: VARS,
      limits: { maxNodes: 1000 },
    });
    expect(fine.startsWith('[{"tag":"range"')).toBe(true);
  });

  it('stops a render whose time is up', async () => {
    const slowPort = new FakePort();
    const original = slowPort.snippet.bind(slowPort);
    slowPort.snippet = async (ecosystem, name) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return original(ecosystem, name);
    };
    await expect(
      renderTemplate('Include(greeting)Include(greeting)Div(x)', {
        port: slowPort,
        vars: VARS,
        limits: { timeMs: 20 },
      }),
    ).rejects.toMatchObject({ limit: 'time' });
  });

  it('renders labels the same whether the port answers at once or later', async () => {
    class LaterPort extends FakePort {
      override langRes(ecosystem: string, name: string): Record<string, string> | undefined {
        return Promise.resolve(super.langRes(ecosystem, name)) as unknown as
          Record<string, string> | undefined;
      }
    }
    const template =
      'Span($hello$ and $@2hello$ $missing$)MenuItem(Title: "$hello$", Page: p)LangRes(hello, fr)' +
      'Div(x){P($hello$)}Button(Body: $hello$, Page: p).Alert(Text: $hello$)';
    for (const lang of ['en', 'fr', 'en-GB']) {
      const vars = { ...VARS, lang };
      const now = await renderTemplateJson(template, { port: new FakePort(), vars });
      expect(await renderTemplateJson(template, { port: new LaterPort(), vars })).toBe(now);
      expect(now).toContain(lang === 'fr' ? 'Bonjour' : 'Hello');
    }
  });

  it('renders static markup the same every time, counted against the limits each time', async () => {
    const staticPart = 'Div(Class: row){Span(Row 1) P(Text with Em(emphasis) and Strong(strength))}';
    const template = `${staticPart}If(#show#){${staticPart}}.Else{Span(none)}ForList(src){${staticPart}}`;
    const vars = { ...VARS, show: '1' };
    const first = await renderTemplateJson(template, { port: new FakePort(), vars });
    const again = await renderTemplateJson(template, { port: new FakePort(), vars });
    expect(again).toBe(first);
    expect(
      await renderTemplateJson(`${staticPart}If(0){${staticPart}}.Else{Span(none)}`, {
        port: new FakePort(),
        vars,
      }),
    ).toBe(
      `${first.slice(0, first.indexOf('}]}]},') + 6)}{"tag":"span","children":[{"tag":"text","text":"none"}]}]`,
    );
    // The nodes of a static part count as if rendered: a render one node short stops, before the part is
    // kept (a text not rendered yet) and after.
    const part = (row: number) =>
      `Div(Class: row){Span(Row ${row}) P(Text with Em(emphasis) and Strong(strength))}`;
    const counted = await renderTemplateJson(part(2) + part(2), { port: new FakePort(), vars });
    // Every node of the tree, and the render's root.
    const nodes = counted.split('"tag"').length;
    for (let round = 0; round < 2; round++) {
      await expect(
        renderTemplate(part(3) + part(3), { port: new FakePort(), vars, limits: { maxNodes: nodes - 1 } }),
      ).rejects.toMatchObject({ limit: 'nodes' });
    }
    await expect(
      renderTemplate(part(3) + part(3), { port: new FakePort(), vars, limits: { maxNodes: nodes } }),
    ).resolves.toHaveLength(2);
  });

  it('lets other port errors through', async () => {
    const port = new FakePort();
    port.systemParam = () => {
      throw new Error('connection lost');
    };
    await expect(renderTemplate('SysParam(a)', { port, vars: VARS })).rejects.toThrow('connection lost');
  });

  it('picks a translation by accept-language', () => {
    const res = { en: 'Hello', 'en-gb': 'Hiya', fr: 'Bonjour', de: '' };
    expect(pickLanguage(res, 'fr-CA, en')).toBe('Bonjour');
    expect(pickLanguage(res, 'en-GB;q=0.8')).toBe('Hiya');
    expect(pickLanguage(res, 'x, fr')).toBe('Hello');
    expect(pickLanguage(res, 'de')).toBe('Hello');
    expect(pickLanguage({ de: '', fr: 'Bonjour' }, 'de')).toBe('Bonjour');
    expect(pickLanguage({}, 'en')).toBeUndefined();
  });
});
