import { describe, expect, it } from 'vitest';
import { BlockEntity } from '../blocks/entities/block.entity';
import { MemberEntity } from '../accounts/entities/member.entity';
import { EntityTable } from './entity-table';

describe('EntityTable', () => {
  const blocks = new EntityTable(BlockEntity);

  it('names the table and the columns as the entity declares them', () => {
    expect(blocks.name).toBe('"block_chain"');
    expect(blocks.column('id')).toBe('"id"');
    expect(blocks.column('rollbacksHash')).toBe('"rollbacks_hash"');
    expect(blocks.column('nodePosition', 'b')).toBe('"b"."node_position"');
    expect(blocks.qualified('id')).toBe('"block_chain"."id"');
    expect(new EntityTable(MemberEntity).name).toBe('"1_members"');
  });

  it('reads each column under its property name, so that a row has the entity members', () => {
    expect(blocks.select('id', 'rollbacksHash', 'tx')).toBe(
      '"id", "rollbacks_hash" AS "rollbacksHash", "tx"',
    );
    expect(blocks.selectIn('b', 'hash', 'keyId')).toBe('"b"."hash", "b"."key_id" AS "keyId"');
    expect(blocks.columnList('hash', 'consensusMode')).toBe('"hash", "consensus_mode"');
  });

  it('writes an INSERT of one row with each column beside its value', () => {
    expect(blocks.insert({ id: '$1', consensusMode: '1', rollbacksHash: '$2' })).toBe(
      'INSERT INTO "block_chain" ("id", "consensus_mode", "rollbacks_hash") VALUES ($1, 1, $2)',
    );
  });

  it("writes an UPDATE's SET list in the order given", () => {
    expect(blocks.assignments({ rollbacksHash: '$2', tx: '0', hash: '"v"."hash"' })).toBe(
      '"rollbacks_hash" = $2, "tx" = 0, "hash" = "v"."hash"',
    );
  });

  it('refuses a member the entity has no column for, and a class that is no entity', () => {
    expect(() => blocks.column('nothing' as keyof BlockEntity & string)).toThrow(/no column for nothing/);
    class Plain {}
    expect(() => new EntityTable(Plain)).toThrow(/Plain is no entity/);
  });
});
