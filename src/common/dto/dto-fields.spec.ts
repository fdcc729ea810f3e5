import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  validate,
} from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OptionalInt64 } from './common-fields';
import {
  Describe,
  dtoFailures,
  dtoFields,
  dtoValidator,
  WireNames,
  type DtoClass,
  type FieldKind,
} from './dto-fields';
import {
  IsHexBytes,
  IsInt32,
  IsInt64,
  IsJsonValue,
  IsSafeInt,
  IsUint64,
  MaxInt64,
  MinInt64,
  ReadsWith,
} from './validators';

/** A DTO with every kind of declaration the node's DTOs use, so the comparison covers them all. */
class EveryDeclaration {
  @IsInt64()
  @MinInt64(1n)
  @MaxInt64(1000n)
  @Describe('a bounded 64-bit integer')
  id!: bigint;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  @MinLength(1)
  @Describe('a short text')
  name?: string;

  @IsOptional()
  @IsString()
  @IsIn(['asc', 'desc'])
  @Describe('one of two words')
  order?: string;

  @IsOptional()
  @IsUint64()
  @Describe('an unsigned 64-bit integer')
  amount?: bigint;

  @IsOptional()
  @IsInt32()
  @Describe('a 32-bit integer')
  small?: number;

  @IsOptional()
  @IsSafeInt()
  @Describe('a count')
  count?: number;

  @IsOptional()
  @IsBoolean()
  @Describe('a flag')
  flag?: boolean;

  @IsOptional()
  @IsHexBytes()
  @Describe('bytes')
  data?: Buffer;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @Describe('texts')
  list?: string[];

  @IsOptional()
  @IsObject()
  @Describe('an object')
  object?: object;

  @IsJsonValue()
  @Describe('any JSON value', { type: 'object' })
  value!: unknown;
}

const SRC = resolve(__dirname, '../..');

/** Every DTO class of `src/` (the `*.dto.ts` files), and the one above. */
async function allDtos(): Promise<DtoClass[]> {
  const dtos: DtoClass[] = [EveryDeclaration];
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.dto.ts'),
  );
  for (const file of files) {
    for (const value of Object.values((await import(join(SRC, file))) as Record<string, unknown>)) {
      if (typeof value === 'function' && dtoFields(value as DtoClass).length > 0)
        dtos.push(value as DtoClass);
    }
  }
  return dtos;
}

/** Values of the field's own kind near its edges, and values of every other kind. */
function valuesFor(kind: FieldKind): fc.Arbitrary<unknown> {
  const anything = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.string({ maxLength: 8 }),
    fc.constantFrom('', 'asc', 'desc', 'centrifugo', 'x'),
    fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
    fc.constantFrom(
      0n,
      1n,
      1000n,
      1001n,
      2n ** 63n - 1n,
      2n ** 63n,
      -(2n ** 63n),
      -(2n ** 63n) - 1n,
      2n ** 64n - 1n,
      2n ** 64n,
    ),
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53, Number.MAX_SAFE_INTEGER),
    fc.boolean(),
    fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
    fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
  );
  const own: Record<FieldKind, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 8 }),
    bool: fc.boolean(),
    int64: fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
    lenientInt64: fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
    uint64: fc.bigInt({ min: -(2n ** 8n), max: 2n ** 65n }),
    int32: fc.integer({ min: -(2 ** 32), max: 2 ** 32 }),
    int: fc.oneof(fc.integer(), fc.double()),
    hex: fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
    object: fc.object({ maxDepth: 1 }),
    array: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
    json: fc.jsonValue({ maxDepth: 1 }),
  };
  return fc.oneof({ arbitrary: own[kind], weight: 3 }, { arbitrary: anything, weight: 2 });
}

function instanceArbitrary(dto: DtoClass): fc.Arbitrary<Record<string, unknown>> {
  const fields = dtoFields(dto);
  return fc.tuple(...fields.map((field) => valuesFor(field.kind))).map((values) => {
    const instance = new dto() as Record<string, unknown>;
    fields.forEach((field, index) => {
      if (values[index] !== undefined) instance[field.name] = values[index];
    });
    return instance;
  });
}

describe('the compiled DTO validator', () => {
  it('agrees with class-validator on generated inputs, for every DTO of src/', async () => {
    const dtos = await allDtos();
    expect(dtos.length).toBeGreaterThan(1);
    for (const dto of dtos) {
      const fast = dtoValidator(dto);
      await fc.assert(
        fc.asyncProperty(instanceArbitrary(dto), async (instance) => {
          const failures = dtoFailures(dto, instance);
          const errors = await validate(instance);
          // The same fields fail, and for each the constraint the compiled check names is among
          // class-validator's; the validator the node runs stops at the first of them. The order is the
          // node's own (`fieldOrder`), class-validator's for a DTO that extends nothing (it differs for
          // one that extends one that extends).
          const constraintsOf = new Map(
            errors.map((error) => [error.property, Object.keys(error.constraints ?? {})]),
          );
          const failed = failures.map((failure) => failure.property);
          if (Object.getPrototypeOf(dto) === Function.prototype)
            expect(failed, dto.name).toEqual([...constraintsOf.keys()]);
          else expect([...failed].sort(), dto.name).toEqual([...constraintsOf.keys()].sort());
          for (const failure of failures)
            expect(constraintsOf.get(failure.property)).toContain(failure.constraint);
          expect(fast(instance)).toEqual(failures[0]);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('refuses a DTO it cannot read: a field without a type, or with two', () => {
    class Untyped {
      @IsOptional()
      @Describe('no type')
      value?: string;
    }
    class TwoTypes {
      @IsString()
      @IsInt64()
      @Describe('two types')
      value!: string;
    }
    expect(() => dtoFields(Untyped)).toThrow(/exactly one type decorator/);
    expect(() => dtoFields(TwoTypes)).toThrow(/exactly one type decorator/);
  });

  it("orders an extending DTO's own fields first, then its parent's, and a field declared again takes its new place and checks", () => {
    class Page {
      @OptionalInt64('rows to skip')
      offset?: bigint;

      @OptionalInt64('rows per page, at most 1000')
      limit?: bigint;
    }
    class NamedPage extends Page {
      @IsString()
      @Describe('a name')
      name!: string;
    }
    class SmallNamedPage extends NamedPage {
      @IsOptional()
      @MaxInt64(100n)
      @IsInt64()
      @Describe('rows per page, at most 100')
      declare limit?: bigint;

      @IsOptional()
      @IsBoolean()
      @Describe('a flag')
      flag?: boolean;
    }
    const described = (dto: DtoClass) => dtoFields(dto).map((field) => [field.name, field.description]);
    expect(described(NamedPage)).toEqual([
      ['name', 'a name'],
      ['offset', 'rows to skip'],
      ['limit', 'rows per page, at most 1000'],
    ]);
    expect(described(SmallNamedPage)).toEqual([
      ['limit', 'rows per page, at most 100'],
      ['flag', 'a flag'],
      ['name', 'a name'],
      ['offset', 'rows to skip'],
    ]);
    const tooMany = Object.assign(new SmallNamedPage(), { name: 'a', limit: 500n });
    expect(dtoValidator(SmallNamedPage)(tooMany)?.constraint).toBe('maxInt64');
    expect(dtoValidator(NamedPage)(Object.assign(new NamedPage(), tooMany))).toBeUndefined();
    expect(dtoValidator(SmallNamedPage)(Object.assign(new SmallNamedPage(), { limit: 5n }))?.property).toBe(
      'name',
    );
  });

  it('names the failing field and the constraint', () => {
    const instance = Object.assign(new EveryDeclaration(), { id: 5n, name: 'too long', value: 1 });
    expect(dtoValidator(EveryDeclaration)(instance)).toEqual({
      property: 'name',
      constraint: 'maxLength',
      message: 'name must be shorter than or equal to 5 characters',
    });
  });

  it('names a field as each binding names it (WireNames), the property elsewhere', () => {
    class Named {
      @MaxLength(2)
      @IsString()
      @WireNames({ form: 'pubkey', rpc: 'public_key' })
      @Describe('a key')
      publicKey!: string;

      @IsOptional()
      @IsString()
      @WireNames({ rpc: 'ecosystem_id' })
      @Describe('an ecosystem')
      ecosystem?: string;
    }
    expect(dtoFields(Named).map((field) => [field.name, field.wireName])).toEqual([
      ['publicKey', { form: 'pubkey', rpc: 'public_key' }],
      ['ecosystem', { form: 'ecosystem', rpc: 'ecosystem_id' }],
    ]);
    const instance = Object.assign(new Named(), { publicKey: 'abc' });
    expect(dtoValidator(Named)(instance)?.message).toBe(
      'publicKey must be shorter than or equal to 2 characters',
    );
    expect(dtoValidator(Named, 'form')(instance)).toMatchObject({
      property: 'pubkey',
      message: 'pubkey must be shorter than or equal to 2 characters',
    });
    expect(dtoValidator(Named, 'rpc')(instance)).toMatchObject({
      property: 'public_key',
      message: 'public_key must be shorter than or equal to 2 characters',
    });
  });

  it("answers a reader's refusal as it is, even when it quotes a token", () => {
    const named = (value: unknown) => {
      if (typeof value !== 'string') throw new Error(`not a text (vals.$property)`);
      return value;
    };
    class Read {
      @IsJsonValue()
      @ReadsWith('isNamed', named)
      @Describe('a value', { type: 'string' })
      value!: unknown;
    }
    expect(dtoValidator(Read)(Object.assign(new Read(), { value: 1 }))?.message).toBe(
      'not a text (vals.$property)',
    );
    expect(dtoValidator(Read)(Object.assign(new Read(), { value: 'a' }))).toBeUndefined();
  });
});
