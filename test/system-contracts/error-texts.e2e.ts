import { beforeAll, describe, expect, it } from 'vitest';
import { IbaxClient, type ArgumentValue, type TxStatusAnswer } from '../../src/sdk';
import { useTestNode, type TestNode } from '../support/node';

/**
 * Contracts that fail, run through real transactions: the transaction status carries the `type` and the
 * text the reference node gives for the same failure (docs/error-texts.md lists them all, with where
 * they arise and the few that differ on purpose). Without the reference's location suffix
 * (`[@1Contract:line]`), which the node does not add (docs/error-texts.md, "Location").
 */

// Bans off: every transaction here fails on purpose, from the same key.
const running = useTestNode({ env: { BLOCK_SLOT_MS: '200', BAN_BAD_TX: '0' } });
let node: TestNode;
let founder: IbaxClient;

/** One contract whose action fails in the way its `Mode` names. */
const PROBE = `contract ErrProbe {
    data {
        Mode string
        Text string "optional"
    }
    func down(n int) int {
        return down(n + 1)
    }
    action {
        var zero int
        var s string
        var m map
        if $Mode == "error" {
            error "probe error"
        }
        if $Mode == "warning" {
            warning "probe warning"
        }
        if $Mode == "info" {
            info "probe info"
        }
        if $Mode == "div" {
            $result = 10 / zero
        }
        if $Mode == "strint" {
            $result = "a" + 1
        }
        if $Mode == "index" {
            s = "abc"
            $result = s[0]
        }
        if $Mode == "extend" {
            $result = $nothing
        }
        if $Mode == "int" {
            $result = Int("x")
        }
        if $Mode == "types" {
            $result = true + 1
        }
        if $Mode == "self" {
            m["a"] = m
        }
        if $Mode == "mapkey" {
            $result = m[1]
        }
        if $Mode == "deep" {
            $result = down(1)
        }
        if $Mode == "callself" {
            CallContract("ErrProbe", {"Mode": "error"})
        }
        if $Mode == "json" {
            $result = JSONDecode($Text)
        }
        if $Mode == "hash" {
            $result = Hash(1)
        }
        if $Mode == "unknown" {
            ContractConditions("Nobody")
        }
        if $Mode == "row" {
            RowConditions("pages", 999999)
        }
        if $Mode == "eval" {
            Eval("")
        }
        if $Mode == "time" {
            $result = UnixDateTimeLocation($Text, "UTC")
        }
        if $Mode == "record" {
            EvalCondition("parameters", "no_such_parameter", "value")
        }
    }
}`;

/** Its conditions ask for its own conditions: they would run forever. */
const LOOP = `contract ErrLoop {
    conditions {
        ContractConditions("ErrLoop")
    }
    action {
    }
}`;

type Call = [contract: string, args: Record<string, ArgumentValue>];

/** Sends the calls in one request (each its own transaction, from the founder) and waits for them all. */
async function run(calls: Call[]): Promise<TxStatusAnswer[]> {
  const txs: Uint8Array[] = [];
  for (const [contract, args] of calls)
    txs.push((await founder.buildCall(node.founderKey, contract, args)).bytes);
  const hashes = await founder.sendTransactions(txs);
  const statuses = await founder.waitForTransactions(hashes, { timeoutMs: 90_000 });
  return hashes.map((hash) => statuses[hash]);
}

function newContract(source: string): Call {
  return ['NewContract', { ApplicationId: '1', Value: source, Conditions: 'true' }];
}

beforeAll(async () => {
  node = running.node;
  founder = new IbaxClient(node.url, { cryptoer: node.config.cryptoer, hasher: node.config.hasher });
  await founder.login(node.founderKey);
  const deployed = await run([newContract(PROBE), newContract(LOOP)]);
  for (const status of deployed) expect(status.errmsg, JSON.stringify(status)).toBeUndefined();
}, 120_000);

describe('compile errors, as NewContract reports them', () => {
  // The source, and the status NewContract ends with.
  const cases: Array<[string, string, { type: string; error: string }]> = [
    [
      'a system variable assigned (no position, as the reference)',
      'contract ErrSysVar {\n    action {\n        $key_id = 1\n    }\n}',
      { type: 'panic', error: 'system variable $key_id cannot be changed' },
    ],
    [
      'an unknown name',
      'contract ErrIdent {\n    action {\n        $result = Nope()\n    }\n}',
      { type: 'panic', error: 'unknown identifier Nope' },
    ],
    [
      'a contract that calls itself',
      'contract ErrSelf {\n    action {\n        ErrSelf()\n    }\n}',
      { type: 'panic', error: "the contract can't call itself recursively" },
    ],
    [
      'a built-in given too many arguments',
      'contract ErrArity {\n    action {\n        $result = Int(1, 2)\n    }\n}',
      { type: 'panic', error: 'function Int must have 1 parameters' },
    ],
    [
      'an assignment without a value',
      'contract ErrEmpty {\n    action {\n        $result =\n    }\n}',
      { type: 'panic', error: 'there is not eval expression' },
    ],
    [
      'two indexes at once',
      'contract ErrMulti {\n    action {\n        var a array\n        $result = a[1][2]\n    }\n}',
      { type: 'panic', error: 'multi-index is not supported' },
    ],
  ];

  it('reports each with the reference text', { timeout: 120_000 }, async () => {
    const statuses = await run(cases.map(([, source]) => newContract(source)));
    statuses.forEach((status, i) => expect(status.errmsg, cases[i][0]).toEqual(cases[i][2]));
  });
});

describe('run-time failures', () => {
  const cases: Array<[string, Call, { type: string; error: string }]> = [
    ['error', ['ErrProbe', { Mode: 'error' }], { type: 'error', error: 'probe error' }],
    ['warning', ['ErrProbe', { Mode: 'warning' }], { type: 'warning', error: 'probe warning' }],
    ['info', ['ErrProbe', { Mode: 'info' }], { type: 'info', error: 'probe info' }],
    // The three the reference differs from the node by, fixed here.
    [
      'conditions that ask for themselves: a loop, not the call depth',
      ['ErrLoop', {}],
      { type: 'panic', error: 'there is loop in ErrLoop contract' },
    ],
    [
      'JSONDecode of nothing',
      ['ErrProbe', { Mode: 'json', Text: '' }],
      { type: 'panic', error: 'unexpected end of JSON input' },
    ],
    [
      'JSONDecode of a cut JSON',
      ['ErrProbe', { Mode: 'json', Text: '{"a":' }],
      { type: 'panic', error: 'unexpected end of JSON input' },
    ],
    [
      'JSONDecode of malformed JSON',
      ['ErrProbe', { Mode: 'json', Text: '{"a" 1}' }],
      { type: 'panic', error: "invalid character '1' after object key" },
    ],
    [
      'JSONDecode of text after the value',
      ['ErrProbe', { Mode: 'json', Text: '[1] x' }],
      { type: 'panic', error: "invalid character 'x' after top-level value" },
    ],
    ['division by zero', ['ErrProbe', { Mode: 'div' }], { type: 'panic', error: 'divided by zero' }],
    [
      'a string that is no int beside an int',
      ['ErrProbe', { Mode: 'strint' }],
      { type: 'panic', error: 'a is not a valid integer : invalid syntax' },
    ],
    [
      'indexing a string',
      ['ErrProbe', { Mode: 'index' }],
      { type: 'panic', error: "Type string doesn't support indexing" },
    ],
    [
      'an unset $ variable',
      ['ErrProbe', { Mode: 'extend' }],
      { type: 'panic', error: 'unknown extend identifier nothing' },
    ],
    [
      'Int of a word',
      ['ErrProbe', { Mode: 'int' }],
      { type: 'panic', error: 'x is not a valid integer : invalid syntax' },
    ],
    [
      'bool plus int',
      ['ErrProbe', { Mode: 'types' }],
      { type: 'panic', error: 'unsupported combination of types in the operator' },
    ],
    ['a map put into itself', ['ErrProbe', { Mode: 'self' }], { type: 'panic', error: 'self assignment' }],
    [
      'a map indexed by an int',
      ['ErrProbe', { Mode: 'mapkey' }],
      { type: 'panic', error: 'index of map cannot be type int64' },
    ],
    ['endless recursion', ['ErrProbe', { Mode: 'deep' }], { type: 'panic', error: 'max call depth' }],
    [
      'a contract that calls itself by name',
      ['ErrProbe', { Mode: 'callself' }],
      { type: 'panic', error: 'there is loop in @1ErrProbe contract' },
    ],
    ['Hash of an int', ['ErrProbe', { Mode: 'hash' }], { type: 'panic', error: 'Unsupported type int64' }],
    [
      'ContractConditions of an unknown contract',
      ['ErrProbe', { Mode: 'unknown' }],
      { type: 'panic', error: 'Unknown contract Nobody' },
    ],
    [
      'RowConditions of a missing row',
      ['ErrProbe', { Mode: 'row' }],
      { type: 'panic', error: 'item 999999 has not been found' },
    ],
    ['Eval of nothing', ['ErrProbe', { Mode: 'eval' }], { type: 'panic', error: 'the condition is empty' }],
    [
      'a date in another layout',
      ['ErrProbe', { Mode: 'time', Text: '2019-07-02' }],
      {
        type: 'panic',
        error: 'Parse time: parsing time "2019-07-02" as "2006-01-02 15:04:05": cannot parse "" as "15"',
      },
    ],
    [
      'EvalCondition of a missing row',
      ['ErrProbe', { Mode: 'record' }],
      { type: 'panic', error: 'Record no_such_parameter has not been found' },
    ],
  ];

  it('ends each with the reference type and text', { timeout: 120_000 }, async () => {
    const statuses = await run(cases.map(([, call]) => call));
    statuses.forEach((status, i) => {
      expect(status.errmsg, cases[i][0]).toEqual(cases[i][2]);
      expect(status.blockid, cases[i][0]).toBe('');
    });
  });
});
