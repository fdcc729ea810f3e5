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
