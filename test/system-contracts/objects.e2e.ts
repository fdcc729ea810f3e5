import { beforeAll, describe, expect, it } from 'vitest';
import {
  changed,
  DEVELOPER,
  expectOk,
  insertedEntry,
  insertedOnly,
  MAIN,
  updatedEntry,
  updatedOnly,
  useNode,
  type Account,
  type Row,
} from './helpers';

/**
 * Pages, menus, snippets, parameters, application parameters, applications, language resources, sections
 * and binaries: each system contract run on the real database, with the rows it wrote, a refusal that
 * leaves the database untouched, and the journal taking it back exactly.
 */

const h = useNode();
/** A member of ecosystem 1 holding the Developer role: passes DeveloperCondition, not MainCondition. */
let developer: Account;
/** A member of ecosystem 1 without roles. */
let stranger: Account;

beforeAll(async () => {
  developer = await h.registered();
  stranger = await h.registered();
  const role = await h.row('1_app_params', `"ecosystem" = 1 AND "name" = 'role_developer'`);
  await h.bench.mustRun(h.founder, 'RolesAssign', {
    RoleId: Number(role!.value),
    MemberAccount: developer.account,
  });
});

describe('pages', () => {
  let page: Row;

  it('NewPage inserts the page with the validate count clamped to max_page_validate_count', async () => {
    const id = await h.nextId('1_pages');
    const run = await h.track(developer, 'NewPage', {
      ApplicationId: 1,
      Name: 'shop',
      Value: 'Div(){Hi}',
      Menu: 'default_menu',
      Conditions: DEVELOPER,
      ValidateCount: 10,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    page = {
      id,
      ecosystem: '1',
      name: 'shop',
      value: 'Div(){Hi}',
      menu: 'default_menu',
      validate_count: '6',
      conditions: DEVELOPER,
      permissions: '{}',
      app_id: '1',
      validate_mode: '0',
    };
    expect(run.changes).toEqual({ '1_pages': insertedOnly(page) });
    expect(run.journal).toEqual([insertedEntry('1_pages', id)]);
    await h.undone(run);
    expect(await h.row('1_pages', `"name" = 'shop'`)).toBeUndefined();

    expect(
      (
        await h.bench.mustRun(developer, 'NewPage', {
          ApplicationId: 1,
          Name: 'shop',
          Value: 'Div(){Hi}',
          Menu: 'default_menu',
          Conditions: DEVELOPER,
          ValidateCount: 10,
        })
      ).result,
    ).toBe(id);
    expect(await h.row('1_pages', `"id" = $1`, [id])).toEqual(page);
  });

  it('NewPage raises a low validate count to 1 and keeps ValidateMode 1', async () => {
    const run = await h.track(h.founder, 'NewPage', {
      ApplicationId: 1,
      Name: 'strict',
      Value: 'Div(){}',
      Menu: 'default_menu',
      Conditions: MAIN,
      ValidateCount: -5,
      ValidateMode: '1',
    });
    expectOk(run);
    expect(run.changes['1_pages'].inserted[0]).toMatchObject({
      validate_count: '1',
      validate_mode: '1',
      conditions: MAIN,
    });
  });

  it('NewPage refuses a caller without changing_page, duplicates and bad input', async () => {
    const fields = { ApplicationId: 1, Name: 'other', Value: '', Menu: '', Conditions: DEVELOPER };
    await h.refused(h.nodeKey, 'NewPage', fields, 'warning', 'Access denied');
    await h.refused(stranger, 'NewPage', fields, 'warning', 'Access denied');
    await h.refused(developer, 'NewPage', { ...fields, Name: 'shop' }, 'warning', 'Page shop already exists');
    await h.refused(
      developer,
      'NewPage',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(developer, 'NewPage', { ...fields, Name: '  ' }, 'warning', 'Page name is empty');
    await h.refused(
      developer,
      'NewPage',
      { ...fields, ValidateMode: '2' },
      'warning',
      'ValidateMode must be 0 or 1',
    );
    await h.refused(
      developer,
      'NewPage',
      { ...fields, Conditions: 'DBInsert("pages", {})' },
      'panic',
      /^condition .* is not allowed$/,
    );
  });

  it('EditPage changes only the fields given and clamps the validate count', async () => {
    const run = await h.track(developer, 'EditPage', {
      Id: Number(page.id),
      Value: 'Div(){Bye}',
      ValidateCount: 3,
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_pages': updatedOnly(changed(page, { value: 'Div(){Bye}', validate_count: '3' })),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_pages', page.id!, { value: 'Div(){Hi}', validate_count: '6' }),
    ]);
    await h.undone(run);
    expect(await h.row('1_pages', `"id" = $1`, [page.id])).toEqual(page);
  });

  it('EditPage refuses strangers, unknown pages and a bad ValidateMode', async () => {
    await h.refused(h.nodeKey, 'EditPage', { Id: Number(page.id), Value: 'x' }, 'warning', 'Access denied');
    await h.refused(stranger, 'EditPage', { Id: Number(page.id), Value: 'x' }, 'warning', 'Access denied');
    await h.refused(developer, 'EditPage', { Id: 999, Value: 'x' }, 'panic', 'item 999 has not been found');
    await h.refused(
      developer,
      'EditPage',
      { Id: Number(page.id), ValidateMode: 'x' },
      'warning',
      'ValidateMode must be 0 or 1',
    );
  });

  it('EditPage honours the page’s own conditions: a MainCondition page is the founder’s', async () => {
    const strict = await h.row('1_pages', `"name" = 'strict'`);
    await h.refused(
      developer,
      'EditPage',
      { Id: Number(strict!.id), Value: 'x' },
      'warning',
      'Access denied',
    );
    expectOk(await h.bench.run(h.founder, 'EditPage', { Id: Number(strict!.id), Value: 'Div(){ok}' }));
  });
});

describe('menus', () => {
  let menu: Row;

  it('NewMenu inserts the menu', async () => {
    const id = await h.nextId('1_menu');
    const run = await h.track(developer, 'NewMenu', {
      Name: 'shop_menu',
      Value: 'MenuItem(Title: "Shop")',
      Title: 'Shop',
      Conditions: DEVELOPER,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    menu = {
      id,
      ecosystem: '1',
      name: 'shop_menu',
      title: 'Shop',
      value: 'MenuItem(Title: "Shop")',
      conditions: DEVELOPER,
      permissions: '{}',
    };
    expect(run.changes).toEqual({ '1_menu': insertedOnly(menu) });
    expect(run.journal).toEqual([insertedEntry('1_menu', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewMenu', {
      Name: 'shop_menu',
      Value: 'MenuItem(Title: "Shop")',
      Title: 'Shop',
      Conditions: DEVELOPER,
    });
    expect(await h.row('1_menu', `"id" = $1`, [id])).toEqual(menu);
  });

  it('NewMenu refuses strangers, duplicates (reference text) and bad input', async () => {
    const fields = { Name: 'm2', Value: 'x', Conditions: DEVELOPER };
    await h.refused(h.nodeKey, 'NewMenu', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewMenu',
      { ...fields, Name: 'shop_menu' },
      'warning',
      'Menu shop_menu already exists',
    );
    await h.refused(developer, 'NewMenu', { ...fields, Name: '' }, 'warning', 'Menu name is empty');
    await h.refused(developer, 'NewMenu', { ...fields, Conditions: '' }, 'panic', 'conditions is empty');
  });

  it('EditMenu changes the fields given', async () => {
    const run = await h.track(developer, 'EditMenu', {
      Id: Number(menu.id),
      Title: 'Store',
      Conditions: MAIN,
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_menu': updatedOnly(changed(menu, { title: 'Store', conditions: MAIN })),
    });
    expect(run.journal).toEqual([updatedEntry('1_menu', menu.id!, { title: 'Shop', conditions: DEVELOPER })]);
    await h.undone(run);
  });

  it('EditMenu refuses strangers and unknown menus', async () => {
    await h.refused(h.nodeKey, 'EditMenu', { Id: Number(menu.id), Value: 'x' }, 'warning', 'Access denied');
    await h.refused(developer, 'EditMenu', { Id: 999, Value: 'x' }, 'panic', 'item 999 has not been found');
  });
});

describe('snippets', () => {
  let snippet: Row;

  it('NewSnippet inserts the snippet', async () => {
    const id = await h.nextId('1_snippets');
    const run = await h.track(developer, 'NewSnippet', {
      ApplicationId: 1,
      Name: 'price',
      Value: 'Span(1 USD)',
      Conditions: DEVELOPER,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    snippet = {
      id,
      ecosystem: '1',
      name: 'price',
      value: 'Span(1 USD)',
      conditions: DEVELOPER,
      permissions: '{}',
      app_id: '1',
    };
    expect(run.changes).toEqual({ '1_snippets': insertedOnly(snippet) });
    expect(run.journal).toEqual([insertedEntry('1_snippets', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewSnippet', {
      ApplicationId: 1,
      Name: 'price',
      Value: 'Span(1 USD)',
      Conditions: DEVELOPER,
    });
  });

  it('NewSnippet refuses strangers and duplicates with the reference text', async () => {
    const fields = { ApplicationId: 1, Name: 'other', Value: 'x', Conditions: DEVELOPER };
    await h.refused(h.nodeKey, 'NewSnippet', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewSnippet',
      { ...fields, Name: 'price' },
      'warning',
      'Block price already exists',
    );
    await h.refused(
      developer,
      'NewSnippet',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(developer, 'NewSnippet', { ...fields, Name: ' ' }, 'warning', 'Snippet name is empty');
  });

  it('EditSnippet changes the fields given', async () => {
    const run = await h.track(developer, 'EditSnippet', { Id: Number(snippet.id), Value: 'Span(2 USD)' });
    expectOk(run);
    expect(run.changes).toEqual({ '1_snippets': updatedOnly(changed(snippet, { value: 'Span(2 USD)' })) });
    expect(run.journal).toEqual([updatedEntry('1_snippets', snippet.id!, { value: 'Span(1 USD)' })]);
    await h.undone(run);
  });

  it('EditSnippet refuses strangers and unknown snippets', async () => {
    await h.refused(
      h.nodeKey,
      'EditSnippet',
      { Id: Number(snippet.id), Value: 'x' },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'EditSnippet',
      { Id: 999, Value: 'x' },
      'panic',
      'item 999 has not been found',
    );
  });
});

describe('parameters', () => {
  let parameter: Row;

  it('NewParameter inserts the parameter', async () => {
    const id = await h.nextId('1_parameters');
    const run = await h.track(developer, 'NewParameter', {
      Name: 'colour',
      Value: 'red',
      Conditions: DEVELOPER,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    parameter = {
      id,
      ecosystem: '1',
      name: 'colour',
      value: 'red',
      conditions: DEVELOPER,
      permissions: '{}',
    };
    expect(run.changes).toEqual({ '1_parameters': insertedOnly(parameter) });
    expect(run.journal).toEqual([insertedEntry('1_parameters', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewParameter', { Name: 'colour', Value: 'red', Conditions: DEVELOPER });
  });

  it('NewParameter refuses strangers, duplicates and invalid conditions', async () => {
    await h.refused(
      h.nodeKey,
      'NewParameter',
      { Name: 'x1', Value: '1', Conditions: 'true' },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'NewParameter',
      { Name: 'colour', Value: 'blue', Conditions: DEVELOPER },
      'warning',
      'Parameter colour already exists',
    );
    await h.refused(
      developer,
      'NewParameter',
      { Name: '', Value: 'blue', Conditions: DEVELOPER },
      'warning',
      'Parameter name is empty',
    );
    await h.refused(
      developer,
      'NewParameter',
      { Name: 'x', Value: 'blue', Conditions: 'invalid' },
      'panic',
      /^condition .* is not allowed$/,
    );
  });

  it('EditParameter changes value and conditions', async () => {
    const run = await h.track(developer, 'EditParameter', {
      Id: Number(parameter.id),
      Value: 'green',
      Conditions: MAIN,
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_parameters': updatedOnly(changed(parameter, { value: 'green', conditions: MAIN })),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_parameters', parameter.id!, { value: 'red', conditions: DEVELOPER }),
    ]);
    await h.undone(run);
  });

  it('EditParameter refuses strangers and unknown parameters', async () => {
    await h.refused(
      h.nodeKey,
      'EditParameter',
      { Id: Number(parameter.id), Value: 'x' },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'EditParameter',
      { Id: 999, Value: 'x' },
      'panic',
      'item 999 has not been found',
    );
  });

  it('EditParameter: founder_account is the founder’s, takes an address, stores the key id of a usable account', async () => {
    const founderParam = (await h.row('1_parameters', `"ecosystem" = 1 AND "name" = 'founder_account'`))!;
    const id = Number(founderParam.id);
    await h.refused(
      developer,
      'EditParameter',
      { Id: id, Value: developer.account },
      'warning',
      'Access denied',
    );
    const newcomer = h.newAccount();
    await h.refused(
      h.founder,
      'EditParameter',
      { Id: id, Value: newcomer.account },
      'error',
      `Account ${newcomer.account} does not exist in ecosystem 1`,
    );
    await h.refused(
      h.founder,
      'EditParameter',
      { Id: id, Value: 'nobody' },
      'error',
      'nobody is not a valid account',
    );
    await h.refused(
      h.founder,
      'EditParameter',
      { Id: id, Value: '-110277540701013350' },
      'error',
      'Account -110277540701013350 is deleted or blocked',
    );

    const run = await h.track(h.founder, 'EditParameter', { Id: id, Value: developer.account });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_parameters': updatedOnly(changed(founderParam, { value: developer.keyId.toString() })),
    });
    // The former founder is no longer MainCondition's; the new one is.
    expect((await h.bench.run(h.founder, 'MainCondition')).error?.message).toBe('Access denied');
    expectOk(await h.bench.run(developer, 'MainCondition'));
    await h.undone(run);
    expectOk(await h.bench.run(h.founder, 'MainCondition'));
  });

  it('EditParameter keeps the numeric parameters non-negative integers and the validate counts ordered', async () => {
    const id = async (name: string) =>
      Number((await h.row('1_parameters', `"ecosystem" = 1 AND "name" = $1`, [name]))!.id);
    const maxSum = await id('max_sum');
    await h.refused(
      developer,
      'EditParameter',
      { Id: maxSum, Value: '12a' },
      'error',
      'The value of max_sum must be a non-negative integer',
    );
    await h.refused(
      developer,
      'EditParameter',
      { Id: maxSum, Value: '-5' },
      'error',
      'The value of max_sum must be a non-negative integer',
    );
    const run = await h.track(developer, 'EditParameter', { Id: maxSum, Value: '5' });
    expectOk(run);
    expect(run.journal).toEqual([updatedEntry('1_parameters', String(maxSum), { value: '1000000' })]);
    await h.undone(run);
    await h.refused(
      developer,
      'EditParameter',
      { Id: await id('max_page_validate_count'), Value: '0' },
      'error',
      'max_page_validate_count must be at least 1 and min_page_validate_count',
    );
    await h.refused(
      developer,
      'EditParameter',
      { Id: await id('min_page_validate_count'), Value: '7' },
      'error',
      'min_page_validate_count must be between 1 and max_page_validate_count',
    );
  });
});

describe('applications and application parameters', () => {
  let application: Row;
  let appParam: Row;

  it('NewApplication inserts the application', async () => {
    const id = await h.nextId('1_applications');
    const run = await h.track(developer, 'NewApplication', { Name: 'Shop', Conditions: DEVELOPER });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    application = {
      id,
      ecosystem: '1',
      name: 'Shop',
      uuid: '00000000-0000-0000-0000-000000000000',
      conditions: DEVELOPER,
      deleted: '0',
    };
    expect(run.changes).toEqual({ '1_applications': insertedOnly(application) });
    expect(run.journal).toEqual([insertedEntry('1_applications', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewApplication', { Name: 'Shop', Conditions: DEVELOPER });
  });

  it('NewApplication refuses strangers, duplicates and empty names', async () => {
    await h.refused(
      h.nodeKey,
      'NewApplication',
      { Name: 'Other', Conditions: DEVELOPER },
      'warning',
      'Access denied',
    );
    await h.refused(
      stranger,
      'NewApplication',
      { Name: 'Other', Conditions: DEVELOPER },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'NewApplication',
      { Name: 'Shop', Conditions: DEVELOPER },
      'warning',
      'Application Shop already exists',
    );
    await h.refused(
      developer,
      'NewApplication',
      { Name: ' ', Conditions: DEVELOPER },
      'warning',
      'Application name is empty',
    );
  });

  it('EditApplication replaces the conditions', async () => {
    const run = await h.track(developer, 'EditApplication', {
      ApplicationId: Number(application.id),
      Conditions: MAIN,
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_applications': updatedOnly(changed(application, { conditions: MAIN })),
    });
    expect(run.journal).toEqual([updatedEntry('1_applications', application.id!, { conditions: DEVELOPER })]);
    await h.undone(run);
  });

  it('EditApplication refuses strangers and unknown applications', async () => {
    await h.refused(
      h.nodeKey,
      'EditApplication',
      { ApplicationId: Number(application.id), Conditions: MAIN },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'EditApplication',
      { ApplicationId: 999, Conditions: MAIN },
      'warning',
      'Application 999 has not been found',
    );
    // The System application is MainCondition's: a developer may not change it.
    await h.refused(
      developer,
      'EditApplication',
      { ApplicationId: 1, Conditions: DEVELOPER },
      'warning',
      'Access denied',
    );
  });

  it('NewAppParam inserts the parameter of the application', async () => {
    const id = await h.nextId('1_app_params');
    const run = await h.track(developer, 'NewAppParam', {
      ApplicationId: Number(application.id),
      Name: 'currency',
      Value: 'USD',
      Conditions: DEVELOPER,
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    appParam = {
      id,
      ecosystem: '1',
      app_id: application.id!,
      name: 'currency',
      value: 'USD',
      conditions: DEVELOPER,
      permissions: '{}',
    };
    expect(run.changes).toEqual({ '1_app_params': insertedOnly(appParam) });
    expect(run.journal).toEqual([insertedEntry('1_app_params', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewAppParam', {
      ApplicationId: Number(application.id),
      Name: 'currency',
      Value: 'USD',
      Conditions: DEVELOPER,
    });
  });

  it('NewAppParam refuses strangers and duplicates of the same application only', async () => {
    const fields = {
      ApplicationId: Number(application.id),
      Name: 'currency',
      Value: 'EUR',
      Conditions: DEVELOPER,
    };
    await h.refused(h.nodeKey, 'NewAppParam', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewAppParam',
      fields,
      'warning',
      'Application parameter currency already exists',
    );
    await h.refused(
      developer,
      'NewAppParam',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(
      developer,
      'NewAppParam',
      { ...fields, Name: '' },
      'warning',
      'Application parameter name is empty',
    );
    expectOk(await h.bench.run(developer, 'NewAppParam', { ...fields, ApplicationId: 1 }));
  });

  it('EditAppParam changes value and conditions', async () => {
    const run = await h.track(developer, 'EditAppParam', { Id: Number(appParam.id), Value: 'EUR' });
    expectOk(run);
    expect(run.changes).toEqual({ '1_app_params': updatedOnly(changed(appParam, { value: 'EUR' })) });
    expect(run.journal).toEqual([updatedEntry('1_app_params', appParam.id!, { value: 'USD' })]);
    await h.undone(run);
  });

  it('EditAppParam refuses strangers, unknown rows and a role parameter naming no role', async () => {
    await h.refused(
      h.nodeKey,
      'EditAppParam',
      { Id: Number(appParam.id), Value: 'x' },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'EditAppParam',
      { Id: 999, Value: 'x' },
      'panic',
      'item 999 has not been found',
    );
    const roleParam = (await h.row('1_app_params', `"ecosystem" = 1 AND "name" = 'role_developer'`))!;
    await h.refused(
      developer,
      'EditAppParam',
      { Id: Number(roleParam.id), Value: '1' },
      'warning',
      'Access denied',
    );
    await h.refused(
      h.founder,
      'EditAppParam',
      { Id: Number(roleParam.id), Value: '999' },
      'error',
      'Role 999 does not exist',
    );
  });
});

describe('language resources', () => {
  let language: Row;

  it('NewLang inserts the resource', async () => {
    const id = await h.nextId('1_languages');
    const run = await h.track(developer, 'NewLang', {
      ApplicationId: 1,
      Name: 'hello',
      Trans: '{"en":"Hello","fr":"Bonjour"}',
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    language = {
      id,
      ecosystem: '1',
      name: 'hello',
      res: '{"en":"Hello","fr":"Bonjour"}',
      conditions: DEVELOPER,
      permissions: '{}',
      app_id: '1',
    };
    expect(run.changes).toEqual({ '1_languages': insertedOnly(language) });
    expect(run.journal).toEqual([insertedEntry('1_languages', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewLang', {
      ApplicationId: 1,
      Name: 'hello',
      Trans: '{"en":"Hello","fr":"Bonjour"}',
    });
  });

  it('NewLang refuses strangers, duplicates and texts that are not an object of languages', async () => {
    const fields = { ApplicationId: 1, Name: 'bye', Trans: '{"en":"Bye"}' };
    await h.refused(h.nodeKey, 'NewLang', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewLang',
      { ...fields, Name: 'hello' },
      'warning',
      'Language resource hello already exists',
    );
    await h.refused(
      developer,
      'NewLang',
      { ...fields, Trans: '"x"' },
      'error',
      'Trans must be a JSON object of language codes and texts',
    );
    await h.refused(
      developer,
      'NewLang',
      { ...fields, Trans: '[1]' },
      'error',
      'Trans must be a JSON object of language codes and texts',
    );
    await h.refused(
      developer,
      'NewLang',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(
      developer,
      'NewLang',
      { ...fields, Name: '' },
      'warning',
      'Language resource name is empty',
    );
  });

  it('EditLang replaces the texts', async () => {
    const run = await h.track(developer, 'EditLang', { Id: Number(language.id), Trans: '{"en":"Hi"}' });
    expectOk(run);
    expect(run.changes).toEqual({ '1_languages': updatedOnly(changed(language, { res: '{"en":"Hi"}' })) });
    expect(run.journal).toEqual([
      updatedEntry('1_languages', language.id!, { name: 'hello', res: '{"en":"Hello","fr":"Bonjour"}' }),
    ]);
    await h.undone(run);
  });

  it('EditLang refuses strangers, unknown resources and bad texts', async () => {
    await h.refused(
      h.nodeKey,
      'EditLang',
      { Id: Number(language.id), Trans: '{"en":"x"}' },
      'warning',
      'Access denied',
    );
    await h.refused(
      developer,
      'EditLang',
      { Id: 999, Trans: '{"en":"x"}' },
      'warning',
      'Language resource 999 has not been found',
    );
    await h.refused(
      developer,
      'EditLang',
      { Id: Number(language.id), Trans: 'x' },
      'error',
      'Trans must be a JSON object of language codes and texts',
    );
  });
});

describe('sections', () => {
  let section: Row;

  it('NewSection inserts a visible section', async () => {
    const id = await h.nextId('1_sections');
    const run = await h.track(developer, 'NewSection', {
      Title: 'Shop',
      Urlname: ' shop ',
      Page: 'default_page',
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    section = {
      id,
      ecosystem: '1',
      title: 'Shop',
      urlname: 'shop',
      page: 'default_page',
      roles_access: '[]',
      status: '1',
    };
    expect(run.changes).toEqual({ '1_sections': insertedOnly(section) });
    expect(run.journal).toEqual([insertedEntry('1_sections', id)]);
    await h.undone(run);
    await h.bench.mustRun(developer, 'NewSection', { Title: 'Shop', Urlname: 'shop', Page: 'default_page' });
  });

  it('NewSection stores a hidden section with its roles', async () => {
    const run = await h.track(developer, 'NewSection', {
      Title: 'Back office',
      Urlname: 'office',
      Page: 'default_page',
      RolesAccess: '[1, 2]',
      Status: -1,
    });
    expectOk(run);
    expect(run.changes['1_sections'].inserted[0]).toMatchObject({ status: '0', roles_access: '[1, 2]' });
  });

  it('NewSection refuses strangers and bad input', async () => {
    const fields = { Title: 'x', Urlname: 'x', Page: 'default_page' };
    await h.refused(h.nodeKey, 'NewSection', fields, 'warning', 'Access denied');
    await h.refused(stranger, 'NewSection', fields, 'warning', 'Access denied');
    await h.refused(
      developer,
      'NewSection',
      { ...fields, Urlname: 'shop' },
      'warning',
      'Section shop already exists',
    );
    await h.refused(
      developer,
      'NewSection',
      { ...fields, Page: 'nothing' },
      'error',
      'Page nothing has not been found',
    );
    await h.refused(developer, 'NewSection', { ...fields, Title: '' }, 'warning', 'Section title is empty');
    await h.refused(
      developer,
      'NewSection',
      { ...fields, Urlname: ' ' },
      'warning',
      'Section urlname is empty',
    );
    await h.refused(
      developer,
      'NewSection',
      { ...fields, RolesAccess: '{"a":1}' },
      'error',
      'RolesAccess must be a JSON array of role ids',
    );
    await h.refused(
      developer,
      'NewSection',
      { ...fields, Status: 2 },
      'error',
      'A new section cannot be the home section; use EditSection with Status 2',
    );
    await h.refused(
      developer,
      'NewSection',
      { ...fields, Status: 5 },
      'error',
      'Status must be 1 (visible) or -1 (hidden)',
    );
  });

  it('EditSection makes a section the home section, and the former home section visible', async () => {
    const home = (await h.row('1_sections', `"ecosystem" = 1 AND "status" = 2`))!;
    const run = await h.track(developer, 'EditSection', { Id: Number(section.id), Status: 2 });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_sections': updatedOnly(changed(home, { status: '1' }), changed(section, { status: '2' })),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_sections', home.id!, { status: '2' }),
      updatedEntry('1_sections', section.id!, { status: '1' }),
    ]);
    await h.undone(run);
  });

  it('EditSection hides and renames', async () => {
    const run = await h.track(developer, 'EditSection', {
      Id: Number(section.id),
      Status: -1,
      Title: 'Store',
      Urlname: 'store',
    });
    expectOk(run);
    expect(run.changes).toEqual({
      '1_sections': updatedOnly(changed(section, { status: '0', title: 'Store', urlname: 'store' })),
    });
    await h.undone(run);
  });

  it('EditSection refuses strangers and bad input', async () => {
    const id = Number(section.id);
    await h.refused(h.nodeKey, 'EditSection', { Id: id, Title: 'x' }, 'warning', 'Access denied');
    await h.refused(
      developer,
      'EditSection',
      { Id: 999, Title: 'x' },
      'warning',
      'Section 999 has not been found',
    );
    await h.refused(
      developer,
      'EditSection',
      { Id: id, Urlname: 'home' },
      'warning',
      'Section home already exists',
    );
    await h.refused(
      developer,
      'EditSection',
      { Id: id, Page: 'nothing' },
      'error',
      'Page nothing has not been found',
    );
    await h.refused(
      developer,
      'EditSection',
      { Id: id, RolesAccess: 'x' },
      'error',
      'RolesAccess must be a JSON array of role ids',
    );
    await h.refused(
      developer,
      'EditSection',
      { Id: id, Status: 3 },
      'error',
      'Status must be 1 (visible), 2 (home section) or -1 (hidden)',
    );
  });
});

describe('binaries', () => {
  let binary: Row;
  const hash = (data: Uint8Array) => h.bench.crypto.hasher.hashHex(data);

  it('UploadBinary stores the file under the caller’s account', async () => {
    const id = await h.nextId('1_binaries');
    const data = new Uint8Array([1, 2, 3]);
    const run = await h.track(stranger, 'UploadBinary', {
      ApplicationId: 1,
      Name: 'avatar.png',
      Data: data,
      DataMimeType: 'image/png',
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    binary = {
      id,
      ecosystem: '1',
      app_id: '1',
      name: 'avatar.png',
      data: '\\x010203',
      hash: hash(data),
      mime_type: 'image/png',
      account: stranger.account,
    };
    expect(run.changes).toEqual({ '1_binaries': insertedOnly(binary) });
    expect(run.journal).toEqual([insertedEntry('1_binaries', id)]);
    await h.undone(run);
    await h.bench.mustRun(stranger, 'UploadBinary', {
      ApplicationId: 1,
      Name: 'avatar.png',
      Data: data,
      DataMimeType: 'image/png',
    });
  });

  it('UploadBinary replaces the data of the same name, with the default MIME type', async () => {
    const data = new Uint8Array([9]);
    const run = await h.track(stranger, 'UploadBinary', { ApplicationId: 1, Name: 'avatar.png', Data: data });
    expectOk(run);
    expect(run.outcome.result).toBe(binary.id);
    expect(run.changes).toEqual({
      '1_binaries': updatedOnly(
        changed(binary, { data: '\\x09', hash: hash(data), mime_type: 'application/octet-stream' }),
      ),
    });
    expect(run.journal).toEqual([
      updatedEntry('1_binaries', binary.id!, { data: '010203', hash: binary.hash, mime_type: 'image/png' }),
    ]);
    await h.undone(run);
  });

  it('UploadBinary refuses files for another account and bad names', async () => {
    const fields = { ApplicationId: 1, Name: 'x', Data: new Uint8Array([1]) };
    await h.refused(
      stranger,
      'UploadBinary',
      { ...fields, MemberAccount: developer.account },
      'warning',
      "Access denied: files are stored under the caller's own account",
    );
    await h.refused(stranger, 'UploadBinary', { ...fields, Name: ' ' }, 'warning', 'File name is empty');
    await h.refused(
      stranger,
      'UploadBinary',
      { ...fields, ApplicationId: 0 },
      'warning',
      'Application id cannot equal 0',
    );
    await h.refused(
      stranger,
      'UploadBinary',
      { ...fields, Name: 'n'.repeat(256) },
      'warning',
      'File name is longer than 255 bytes',
    );
  });

  it('UploadFile stores a file field through UploadBinary, under the file’s own name', async () => {
    const id = await h.nextId('1_binaries');
    const body = new Uint8Array([4, 5]);
    const run = await h.track(h.founder, 'UploadFile', {
      ApplicationId: 1,
      Data: { Name: 'logo.png', MimeType: 'image/png', Body: body },
    });
    expectOk(run);
    expect(run.outcome.result).toBe(id);
    expect(run.changes).toEqual({
      '1_binaries': insertedOnly({
        id,
        ecosystem: '1',
        app_id: '1',
        name: 'logo.png',
        data: '\\x0405',
        hash: hash(body),
        mime_type: 'image/png',
        account: h.founder.account,
      }),
    });
    expect(run.journal).toEqual([insertedEntry('1_binaries', id)]);
    await h.undone(run);
  });

  it('UploadFile takes Name over the file’s name and replaces a file of that name', async () => {
    const run = await h.track(stranger, 'UploadFile', {
      ApplicationId: 1,
      Name: 'avatar.png',
      Data: { Name: 'ignored.gif', MimeType: 'image/gif', Body: new Uint8Array([7]) },
    });
    expectOk(run);
    expect(run.outcome.result).toBe(binary.id);
    expect(run.changes['1_binaries'].updated.map((pair) => pair.after)).toEqual([
      { ...binary, data: '\\x07', hash: hash(new Uint8Array([7])), mime_type: 'image/gif' },
    ]);
    await h.undone(run);
  });

  it('UploadFile refuses a file without a name', async () => {
    await h.refused(
      stranger,
      'UploadFile',
      { ApplicationId: 1, Data: { MimeType: 'image/gif', Body: new Uint8Array([7]) } },
      'warning',
      'File name is empty',
    );
  });
});
