import { describe, expect, it } from 'vitest';
import { Vm, type BuiltinDef } from '../../vm';
import { SYSTEM_CONTRACT_NAMES, SYSTEM_CONTRACTS, systemContractId, systemContractRowId } from './index';

/**
 * The host built-ins of src/contract-host/README.md as compile-time doubles: name, accepted argument count and
 * whether they write to the database. They are never run here.
 */
const HOST_SIGNATURES: [name: string, params: number | [number, number], writesDb: boolean][] = [
  ['DBSelect', 7, false],
  ['DBCount', 2, false],
  ['DBInsert', 2, true],
  ['DBUpdate', 3, true],
  ['DBUpdateExt', 3, true],
  ['EcosysParam', 1, false],
  ['AppParam', 3, false],
  ['SysParamString', 1, false],
  ['SysParamInt', 1, false],
  ['LangRes', 1, false],
  ['GetContractByName', 1, false],
  ['GetContractById', 1, false],
  ['IsObject', 2, false],
  ['ContractAccess', [1, Infinity], false],
  ['ContractConditions', [1, Infinity], false],
  ['RoleAccess', [1, Infinity], false],
  ['ValidateCondition', 2, false],
  ['RowConditions', 3, false],
  ['AllowChangeCondition', 1, false],
  ['Eval', 1, false],
  ['EvalCondition', 3, false],
  ['TableConditions', 3, false],
  ['CreateTable', 4, true],
  ['PermTable', 2, true],
  ['CreateColumn', 4, true],
  ['ColumnCondition', 3, false],
  ['PermColumn', 3, true],
  ['ContractName', 1, false],
  ['ValidateEditContractNewValue', 2, false],
  ['CreateContract', 5, true],
  ['UpdateContract', 5, true],
  ['BndWallet', 2, true],
  ['UnbndWallet', 2, true],
  ['CreateLanguage', [2, 3], true],
  ['EditLanguage', 3, true],
  ['CreateEcosystem', 2, true],
  ['EditEcosysName', 2, true],
  ['AddressToId', 1, false],
  ['IdToAddress', 1, false],
  ['PubToID', 1, false],
  ['HexToPub', 1, false],
  ['Hash', 1, false],
  ['IsHonorNodeKey', 1, false],
  ['UpdateNodesBan', 1, true],
  ['DBUpdatePlatformParam', [2, 3], true],
  // They write nothing: they ask for counts to be published after the block.
  ['UpdateNotifications', [1, Infinity], false],
  ['UpdateRolesNotifications', [1, Infinity], false],
];

const WRITING_BUILTINS = new Set(HOST_SIGNATURES.filter(([, , writes]) => writes).map(([name]) => name));

/** DBFind and DBRow are written in the language over DBSelect (the host's prelude); same shape here. */
const PRELUDE = `
func DBFind(table string).Columns(columns string).Where(where map).WhereId(id int).Order(order string).Limit(limit int).Offset(offset int) array {
    return DBSelect(table, columns, id, order, offset, limit, where)
}

func DBRow(table string).Columns(columns string).Where(where map).WhereId(id int).Order(order string) map {
    return Row(DBSelect(table, columns, id, order, 0, 1, where))
}
`;

function hostDoubles(): BuiltinDef[] {
  return HOST_SIGNATURES.map(([name, params, writesDb]) => ({
    name,
    params,
    writesDb,
    fn: () => {
      throw new Error(`${name} is a compile-time double`);
    },
  }));
}

function newVm(): Vm {
  const vm = new Vm();
  vm.builtins.registerAll(hostDoubles());
  vm.loadPrelude(PRELUDE);
  return vm;
}

type Field = [name: string, type: string, optional?: 'optional'];

/** The `data` sections: the reference's (engines.md §3) and, for the application contracts, ours. */
const EXPECTED_FIELDS: Record<string, Field[]> = {
  DeveloperCondition: [],
  MainCondition: [],
  NodeOwnerCondition: [],
  NewTable: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Columns', 'string'],
    ['Permissions', 'string'],
  ],
  EditTable: [
    ['Name', 'string'],
    ['InsertPerm', 'string'],
    ['UpdatePerm', 'string'],
    ['NewColumnPerm', 'string'],
    ['ReadPerm', 'string', 'optional'],
  ],
  NewColumn: [
    ['TableName', 'string'],
    ['Name', 'string'],
    ['Type', 'string'],
    ['Permissions', 'string'],
  ],
  EditColumn: [
    ['TableName', 'string'],
    ['Name', 'string'],
    ['Permissions', 'string'],
  ],
  NewPage: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Value', 'string'],
    ['Menu', 'string'],
    ['Conditions', 'string'],
    ['ValidateCount', 'int', 'optional'],
    ['ValidateMode', 'string', 'optional'],
  ],
  EditPage: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Menu', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
    ['ValidateCount', 'int', 'optional'],
    ['ValidateMode', 'string', 'optional'],
  ],
  NewMenu: [
    ['Name', 'string'],
    ['Value', 'string'],
    ['Title', 'string', 'optional'],
    ['Conditions', 'string'],
  ],
  EditMenu: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Title', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
  ],
  NewSnippet: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Value', 'string'],
    ['Conditions', 'string'],
  ],
  EditSnippet: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
  ],
  NewContract: [
    ['ApplicationId', 'int'],
    ['Value', 'string'],
    ['Conditions', 'string'],
    ['TokenEcosystem', 'int', 'optional'],
  ],
  EditContract: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
  ],
  BindWallet: [['Id', 'int']],
  UnbindWallet: [['Id', 'int']],
  NewParameter: [
    ['Name', 'string'],
    ['Value', 'string'],
    ['Conditions', 'string'],
  ],
  EditParameter: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
  ],
  NewAppParam: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Value', 'string'],
    ['Conditions', 'string'],
  ],
  EditAppParam: [
    ['Id', 'int'],
    ['Value', 'string', 'optional'],
    ['Conditions', 'string', 'optional'],
  ],
  NewApplication: [
    ['Name', 'string'],
    ['Conditions', 'string'],
  ],
  EditApplication: [
    ['ApplicationId', 'int'],
    ['Conditions', 'string', 'optional'],
  ],
  NewLang: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Trans', 'string'],
  ],
  EditLang: [
    ['Id', 'int'],
    ['Trans', 'string'],
  ],
  NewEcosystem: [['Name', 'string']],
  EditEcosystemName: [
    ['EcosystemID', 'int'],
    ['NewName', 'string'],
  ],
  NewUser: [
    ['NewPubkey', 'string', 'optional'],
    ['Ecosystem', 'int', 'optional'],
  ],
  UploadBinary: [
    ['ApplicationId', 'int'],
    ['Name', 'string'],
    ['Data', 'bytes'],
    ['DataMimeType', 'string', 'optional'],
    ['MemberAccount', 'string', 'optional'],
  ],
  UploadFile: [
    ['ApplicationId', 'int'],
    ['Data', 'file'],
    ['Name', 'string', 'optional'],
  ],
  TokensTransfer: [
    ['Recipient', 'string'],
    ['Amount', 'money'],
    ['Comment', 'string', 'optional'],
  ],
  RolesCreate: [
    ['RoleName', 'string'],
    ['RoleType', 'int', 'optional'],
    ['DefaultPage', 'string', 'optional'],
    ['RolesAccess', 'string', 'optional'],
    ['ImageId', 'int', 'optional'],
  ],
  RolesAssign: [
    ['RoleId', 'int'],
    ['MemberAccount', 'string'],
  ],
  RolesUnassign: [
    ['RoleId', 'int'],
    ['MemberAccount', 'string'],
  ],
  ProfileEdit: [
    ['MemberName', 'string', 'optional'],
    ['ImageId', 'int', 'optional'],
    ['Info', 'string', 'optional'],
  ],
  NewSection: [
    ['Title', 'string'],
    ['Urlname', 'string'],
    ['Page', 'string'],
    ['RolesAccess', 'string', 'optional'],
    ['Status', 'int', 'optional'],
  ],
  EditSection: [
    ['Id', 'int'],
    ['Title', 'string', 'optional'],
    ['Urlname', 'string', 'optional'],
    ['Page', 'string', 'optional'],
    ['RolesAccess', 'string', 'optional'],
    ['Status', 'int', 'optional'],
  ],
  AccessControlMode: [['VotingId', 'int', 'optional']],
  AccessVoteTempRun: [
    ['ContractAccept', 'string', 'optional'],
    ['ContractAcceptParams', 'map', 'optional'],
  ],
  CallDelayedContract: [
    ['Id', 'int'],
    ['Block', 'int', 'optional'],
  ],
  CheckNodesBan: [],
  HonorNodeCondition: [],
  Import: [['Data', 'string']],
  ImportUpload: [['Data', 'file']],
  NewBadBlock: [
    ['ProducerNodeID', 'int'],
    ['ConsumerNodeID', 'int'],
    ['BlockID', 'int'],
    ['Timestamp', 'int'],
    ['Reason', 'string'],
  ],
  UpdatePlatformParam: [
    ['Name', 'string'],
    ['Value', 'string'],
    ['Conditions', 'string', 'optional'],
  ],
  NotificationsSend: [
    ['Recipient', 'string'],
    ['Header', 'string'],
    ['Body', 'string', 'optional'],
    ['PageName', 'string', 'optional'],
    ['PageParams', 'string', 'optional'],
  ],
  NotificationsBroadcast: [
    ['RoleId', 'int'],
    ['Header', 'string'],
    ['Body', 'string', 'optional'],
    ['PageName', 'string', 'optional'],
    ['PageParams', 'string', 'optional'],
  ],
  NotificationsProcess: [['NotificationId', 'int']],
  NotificationsClose: [['NotificationId', 'int']],
};

/** Actions that write only through the contracts they call by a name computed at run time. */
const CALLS_BY_NAME_ONLY = new Set(['AccessVoteTempRun', 'Import']);

/** The contracts added after the first set: appended (alphabetically among themselves), so earlier ids stay. */
const ADDED_LATER = [
  'AccessControlMode',
  'AccessVoteTempRun',
  'CallDelayedContract',
  'CheckNodesBan',
  'HonorNodeCondition',
  'Import',
  'ImportUpload',
  'NewBadBlock',
  'UpdatePlatformParam',
];

/** The notifications application's contracts, appended after those (issue 21). */
const NOTIFICATION_CONTRACTS = [
  'NotificationsBroadcast',
  'NotificationsClose',
  'NotificationsProcess',
  'NotificationsSend',
];

/** Compiles all system contracts into ecosystem 1 in genesis order, as genesis does (not extern mode). */
function compileGenesis(vm: Vm): void {
  SYSTEM_CONTRACTS.forEach((contract, index) => {
    const compiled = vm.compileSource(contract.source, {
      ecosystem: 1,
      meta: { tableId: index + 1, conditions: contract.conditions, appId: contract.appId },
    });
    expect(compiled.names).toEqual([contract.name]);
  });
}

describe('system contracts', () => {
  it('are listed in genesis order: DeveloperCondition, MainCondition, the first set, then those added later', () => {
    const names = SYSTEM_CONTRACTS.map((c) => c.name);
    const alphabetical = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(names).toEqual(SYSTEM_CONTRACT_NAMES);
    expect(names.slice(0, 2)).toEqual(['DeveloperCondition', 'MainCondition']);
    const later = ADDED_LATER.length + NOTIFICATION_CONTRACTS.length;
    const first = names.slice(2, names.length - later);
    expect(first).toEqual(alphabetical(first));
    expect(names.slice(names.length - later, names.length - NOTIFICATION_CONTRACTS.length)).toEqual(
      alphabetical(ADDED_LATER),
    );
    expect(names.slice(names.length - NOTIFICATION_CONTRACTS.length)).toEqual(NOTIFICATION_CONTRACTS);
    expect(systemContractId('NotificationsBroadcast')).toBe(5047);
    expect(systemContractId('NotificationsSend')).toBe(5050);
    expect(systemContractId('UploadFile')).toBe(5037);
    expect(systemContractId('AccessControlMode')).toBe(5038);
    expect(systemContractId('UpdatePlatformParam')).toBe(5046);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(Object.keys(EXPECTED_FIELDS).sort());
    expect(systemContractRowId('DeveloperCondition')).toBe(1);
    expect(systemContractId('MainCondition')).toBe(5002);
    expect(systemContractId('NewContract')).toBe(5019);
    expect(systemContractId('Nothing')).toBe(0);
  });

  it('carry their row data', () => {
    for (const contract of SYSTEM_CONTRACTS) {
      expect(contract.appId).toBe(1n);
      expect(contract.conditions).toBe(
        contract.name === 'NewUser'
          ? 'ContractConditions("NodeOwnerCondition")'
          : 'ContractConditions("MainCondition")',
      );
      expect(contract.perEcosystem).toBe(['MainCondition', 'DeveloperCondition'].includes(contract.name));
      expect(contract.source).toContain(`contract ${contract.name} {`);
    }
  });

  it('compile in genesis order without extern mode', () => {
    const vm = newVm();
    compileGenesis(vm);
    SYSTEM_CONTRACTS.forEach((contract, index) => {
      const info = vm.contractInfo(contract.name, 1);
      expect(info, contract.name).toBeDefined();
      expect(info!.id).toBe(5000 + index + 1);
      expect(info!.id).toBe(systemContractId(contract.name));
      expect(info!.meta.conditions).toBe(contract.conditions);
    });
  });

  it('have the expected data fields (name, type, optional)', () => {
    const vm = newVm();
    compileGenesis(vm);
    for (const contract of SYSTEM_CONTRACTS) {
      const expected = EXPECTED_FIELDS[contract.name].map(([name, type, optional]) => ({
        name,
        type,
        optional: optional === 'optional',
      }));
      expect(vm.contractInfo(contract.name, 1)!.fields, contract.name).toEqual(expected);
    }
  });

  it('never reach a database write from conditions', () => {
    const vm = newVm();
    compileGenesis(vm);
    for (const contract of SYSTEM_CONTRACTS) {
      const compiled = vm.getContract(contract.name, 1)!;
      expect(compiled.conditions?.writesDb ?? false, `${contract.name} conditions`).toBe(false);
      // Every action writes something (directly or through a nested contract), except those whose writes are
      // made by contracts they name at run time (CallContract); the condition contracts have no action.
      const writesThrough = CALLS_BY_NAME_ONLY.has(contract.name);
      if (compiled.action) expect(compiled.action.writesDb, `${contract.name} action`).toBe(!writesThrough);
      else expect(compiled.writesDb, contract.name).toBe(false);
    }
    for (const name of [
      'MainCondition',
      'DeveloperCondition',
      'NodeOwnerCondition',
      'HonorNodeCondition',
      'AccessControlMode',
    ]) {
      expect(vm.getContract(name, 1)!.action, name).toBeNull();
    }
  });

  it('use only the writing built-ins of the host list in their actions', () => {
    const called = new Set<string>();
    for (const contract of SYSTEM_CONTRACTS) {
      for (const match of contract.source.matchAll(/\b([A-Z][A-Za-z]+)\(/g)) called.add(match[1]);
    }
    const writing = [...called].filter((name) => WRITING_BUILTINS.has(name)).sort();
    expect(writing).toEqual([
      'BndWallet',
      'CreateColumn',
      'CreateContract',
      'CreateEcosystem',
      'CreateLanguage',
      'CreateTable',
      'DBInsert',
      'DBUpdate',
      'DBUpdateExt',
      'DBUpdatePlatformParam',
      'EditEcosysName',
      'EditLanguage',
      'PermColumn',
      'PermTable',
      'UnbndWallet',
      'UpdateContract',
      'UpdateNodesBan',
    ]);
  });

  it('refuse a conditions section that writes (the compiler check the sources rely on)', () => {
    const vm = newVm();
    expect(() =>
      vm.compileSource('contract Bad {\n  conditions {\n    DBInsert("pages", {"name": "x"})\n  }\n}', {
        ecosystem: 1,
      }),
    ).toThrow(/'conditions' cannot call contracts or functions which can modify the blockchain database/);
  });

  it('per-ecosystem contracts compile into a new ecosystem too', () => {
    const vm = newVm();
    compileGenesis(vm);
    for (const contract of SYSTEM_CONTRACTS.filter((c) => c.perEcosystem)) {
      vm.compileSource(contract.source, { ecosystem: 7 });
      expect(vm.contractInfo(contract.name, 7)?.key).toBe(`@7${contract.name}`);
    }
  });
});
