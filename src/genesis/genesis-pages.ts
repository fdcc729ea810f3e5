/**
 * The pages, menu, snippets and language resources a fresh node shows in ecosystem 1: a home page, a page per
 * system table, and the default menu leading to them. Written for this node; they use the page language's
 * common functions so that a new node demonstrates them (and the tests render every one).
 */

export interface GenesisPage {
  name: string;
  value: string;
}

export interface GenesisLanguage {
  name: string;
  res: Record<string, string>;
}

interface SystemTable {
  /** The table as pages name it (shared tables resolve to the ecosystem's rows). */
  table: string;
  /** Its page: `system_<table>`. */
  page: string;
  /** Language resource of its title, and its English and French titles. */
  label: string;
  en: string;
  fr: string;
  /** Columns shown: `Title=column`, title a `$label$` or plain text. */
  columns: [title: string, column: string][];
  /** DBFind order (a column, or `{"column": -1}`). */
  order: string;
}

const SYSTEM_TABLES: SystemTable[] = (
  [
    {
      table: 'keys',
      label: 'sys_keys',
      en: 'Keys',
      fr: 'Clés',
      columns: [
        ['$@1sys_account$', 'account'],
        ['Amount', 'amount'],
        ['Blocked', 'blocked'],
      ],
      order: 'account',
    },
    {
      table: 'parameters',
      label: 'sys_parameters',
      en: 'Ecosystem parameters',
      fr: "Paramètres de l'écosystème",
      columns: [
        ['$@1sys_name$', 'name'],
        ['Value', 'value'],
        ['Conditions', 'conditions'],
      ],
      order: 'name',
    },
    {
      table: 'contracts',
      label: 'sys_contracts',
      en: 'Contracts',
      fr: 'Contrats',
      columns: [
        ['Id', 'id'],
        ['$@1sys_name$', 'name'],
        ['Application', 'app_id'],
      ],
      order: 'id',
    },
    {
      table: 'pages',
      label: 'sys_pages',
      en: 'Pages',
      fr: 'Pages',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Menu', 'menu'],
        ['Validators', 'validate_count'],
      ],
      order: 'name',
    },
    {
      table: 'menu',
      label: 'sys_menus',
      en: 'Menus',
      fr: 'Menus',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Title', 'title'],
      ],
      order: 'name',
    },
    {
      table: 'snippets',
      label: 'sys_snippets',
      en: 'Snippets',
      fr: 'Fragments',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Application', 'app_id'],
      ],
      order: 'name',
    },
    {
      table: 'tables',
      label: 'sys_tables',
      en: 'Tables',
      fr: 'Tables',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Application', 'app_id'],
        ['Conditions', 'conditions'],
      ],
      order: 'name',
    },
    {
      table: 'languages',
      label: 'sys_languages',
      en: 'Language resources',
      fr: 'Ressources linguistiques',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Translations', 'res'],
      ],
      order: 'name',
    },
    {
      table: 'members',
      label: 'sys_members',
      en: 'Members',
      fr: 'Membres',
      columns: [
        ['$@1sys_name$', 'member_name'],
        ['$@1sys_account$', 'account'],
      ],
      order: 'id',
    },
    {
      table: 'roles',
      label: 'sys_roles',
      en: 'Roles',
      fr: 'Rôles',
      columns: [
        ['$@1sys_name$', 'role_name'],
        ['Type', 'role_type'],
        ['Default page', 'default_page'],
      ],
      order: 'id',
    },
    {
      table: 'sections',
      label: 'sys_sections',
      en: 'Sections',
      fr: 'Sections',
      columns: [
        ['Title', 'title'],
        ['Page', 'page'],
        ['Status', 'status'],
      ],
      order: 'id',
    },
    {
      table: 'applications',
      label: 'sys_applications',
      en: 'Applications',
      fr: 'Applications',
      columns: [
        ['$@1sys_name$', 'name'],
        ['UUID', 'uuid'],
      ],
      order: 'id',
    },
    {
      table: 'app_params',
      label: 'sys_app_params',
      en: 'Application parameters',
      fr: "Paramètres d'application",
      columns: [
        ['Application', 'app_id'],
        ['$@1sys_name$', 'name'],
        ['Value', 'value'],
      ],
      order: 'name',
    },
    {
      table: 'platform_parameters',
      label: 'sys_platform_parameters',
      en: 'Platform parameters',
      fr: 'Paramètres de la plateforme',
      columns: [
        ['$@1sys_name$', 'name'],
        ['Value', 'value'],
      ],
      order: 'name',
    },
  ] satisfies Omit<SystemTable, 'page'>[]
).map((table) => ({ ...table, page: `system_${table.table}` }));

/** The form under a table's rows, where a contract adds to it (Weaver sends the button's contract). */
const TABLE_FORMS: Record<string, string> = {
  languages: [
    '        Form(Class: form-inline){',
    '            Input(Name: Name, Placeholder: "$@1sys_name$")',
    // A quote inside a quoted value is doubled in the template language (a backslash would stay in the text).
    '            Input(Name: Trans, Placeholder: "{""en"": ""…""}")',
    '            Button(Body: "$@1sys_add$", Class: btn btn-primary, Contract: @1NewLang, Params: "ApplicationId=1,Name=Val(Name),Trans=Val(Trans)", Page: system_languages)',
    '        }',
  ].join('\n'),
  parameters: [
    '        Form(Class: form-inline){',
    '            Input(Name: Name, Placeholder: "$@1sys_name$")',
    '            Input(Name: Value, Placeholder: Value)',
    // A value with parentheses in Params would be a function; Weaver sends only text and Val(…) values.
    '            Input(Name: Conditions, Value: "ContractConditions(""DeveloperCondition"")")',
    '            Button(Body: "$@1sys_add$", Class: btn btn-primary, Contract: @1NewParameter, Params: "Name=Val(Name),Value=Val(Value),Conditions=Val(Conditions)", Page: system_parameters)',
    '        }',
  ].join('\n'),
};

function tablePage(table: SystemTable): string {
  const columns = table.columns.map(([, column]) => column).join(',');
  const titles = table.columns.map(([title, column]) => `${title}=${column}`).join(',');
  const order = table.order.startsWith('{') ? table.order : `"${table.order}"`;
  return [
    `SetTitle("$@1${table.label}$")`,
    `SetVar(page_title, "$@1${table.label}$")`,
    'If(#limit#){}.Else{ SetVar(limit, 25) }',
    'Include(@1pager_header)',
    'Div(content-wrapper){',
    `    DBFind(${table.table}, src_${table.table}).Columns("${columns}").Order(${order}).Limit(#limit#).Count(${table.table}_count)`,
    `    If(#${table.table}_count# > 0){`,
    `        Table(src_${table.table}, "${titles}")`,
    '    }.Else{',
    '        P(Class: text-muted){ Em($@1sys_empty$) }',
    '    }',
    `    P(Class: text-muted, Body: "#${table.table}_count# $@1sys_rows$")`,
    ...(TABLE_FORMS[table.table] ? [TABLE_FORMS[table.table]] : []),
    '}',
  ].join('\n');
}

export const HOME_PAGE = [
  'SetTitle("$@1sys_home$")',
  'SetVar(page_title, "$@1sys_welcome$ #ecosystem_name#")',
  'Include(@1pager_header)',
  'Div(content-wrapper){',
  '    Div(panel panel-primary){',
  '        Div(panel-body){',
  '            P(){ $@1sys_signed_in$ Strong(#account_id#) (Em(#key_id#)) }',
  '            P(){ $@1sys_founder$: Span(Class: text-bold, Body: EcosysParam(founder_account)) }',
  '            P(){ $@1sys_max_sum$: Span(EcosysParam(max_sum)) }',
  '        }',
  '    }',
  '    Div(panel panel-default){',
  '        Div(panel-heading){ Strong(LangRes(@1sys_system_tables)) }',
  '        Div(list-group){',
  '            DBFind(pages, src_system).Columns("name").Where({"name": {"$begin": "system_"}}).Order("name").Limit(50)',
  '            ForList(src_system){',
  '                LinkPage(Body: "#name#", Page: "#name#", Class: list-group-item)',
  '            }',
  '        }',
  '    }',
  '}',
].join('\n');

export const NOTIFICATIONS_PAGE = [
  'SetTitle("$@1sys_notifications$")',
  'Div(content-wrapper){',
  // The caller's own open notifications (NotificationsSend), newest first; a button closes one.
  '    DBFind(notifications, src_notifications).Columns("id,notification->header,page_name,date_created").Where({"closed": 0, "recipient->account": "#account_id#"}).Order({"id": -1}).Limit(25).Count(notifications_count)',
  '    If(#notifications_count# == 0){',
  '        P(Class: text-muted){ Em($@1sys_no_notifications$) }',
  '    }.Else{',
  '        Table(src_notifications, "Id=id,Header=notification.header,Page=page_name,Created=date_created")',
  '        Form(Class: form-inline){',
  '            Input(Name: NotificationId, Placeholder: Id)',
  '            Button(Body: "$@1sys_close$", Class: btn btn-default, Contract: @1NotificationsClose, Params: "NotificationId=Val(NotificationId)", Page: notifications)',
  '        }',
  '    }',
  '}',
].join('\n');

export const PAGER_HEADER_SNIPPET = [
  'Div(pager-header clearfix){',
  '    Span(Class: pull-left h4, Body: "#page_title#")',
  '    Span(Class: pull-right){ LinkPage(Body: "$@1sys_home$", Page: default_page) }',
  '}',
].join('\n');

export const DEFAULT_MENU = [
  'MenuItem(Title: "$@1sys_home$", Page: default_page, Icon: "icon-home")',
  'MenuItem(Title: "$@1sys_notifications$", Page: notifications, Icon: "icon-bell")',
  'MenuGroup(Title: "$@1sys_system_tables$", Icon: "icon-grid"){',
  ...SYSTEM_TABLES.map(
    (table) =>
      `    MenuItem(Title: "$@1${table.label}$", Page: ${table.page}, PageParams: "limit=25", Icon: "icon-list")`,
  ),
  '}',
  'MenuItem(Title: "Developer", Page: developer_index, Icon: "icon-wrench")',
].join('\n');

/** Pages of ecosystem 1 besides the ecosystem seed's developer page, in row order. */
export const GENESIS_PAGES: GenesisPage[] = [
  { name: 'default_page', value: HOME_PAGE },
  { name: 'notifications', value: NOTIFICATIONS_PAGE },
  ...SYSTEM_TABLES.map((table) => ({ name: table.page, value: tablePage(table) })),
];

export const GENESIS_SNIPPETS: GenesisPage[] = [{ name: 'pager_header', value: PAGER_HEADER_SNIPPET }];

export const GENESIS_LANGUAGES: GenesisLanguage[] = [
  { name: 'sys_home', res: { en: 'Home', fr: 'Accueil' } },
  { name: 'sys_welcome', res: { en: 'Welcome to', fr: 'Bienvenue dans' } },
  { name: 'sys_signed_in', res: { en: 'You are signed in as', fr: 'Vous êtes connecté en tant que' } },
  { name: 'sys_founder', res: { en: 'Founder', fr: 'Fondateur' } },
  { name: 'sys_max_sum', res: { en: 'Largest transfer', fr: 'Virement maximal' } },
  { name: 'sys_system_tables', res: { en: 'System tables', fr: 'Tables système' } },
  { name: 'sys_notifications', res: { en: 'Notifications', fr: 'Notifications' } },
  { name: 'sys_no_notifications', res: { en: 'No notifications', fr: 'Aucune notification' } },
  { name: 'sys_close', res: { en: 'Close', fr: 'Fermer' } },
  { name: 'sys_empty', res: { en: 'No rows yet', fr: 'Aucune ligne' } },
  { name: 'sys_rows', res: { en: 'rows', fr: 'lignes' } },
  { name: 'sys_name', res: { en: 'Name', fr: 'Nom' } },
  { name: 'sys_account', res: { en: 'Account', fr: 'Compte' } },
  { name: 'sys_add', res: { en: 'Add', fr: 'Ajouter' } },
  ...SYSTEM_TABLES.map((table) => ({ name: table.label, res: { en: table.en, fr: table.fr } })),
];
