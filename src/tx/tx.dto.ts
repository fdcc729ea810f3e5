import { IsBoolean, IsObject, IsOptional, IsString, ValidateBy } from 'class-validator';
import { schema as s } from '../api-docs/schema';
import { Describe, FirstOfRepeated, FromPath } from '../common/dto/dto-fields';
import { IsJsonValue, NotEmptyParams } from '../common/dto/validators';

/** `GET txinfo/:hash`. */
export class TxInfoForm {
  @FromPath()
  @IsString()
  @Describe('transaction hash (hex)')
  hash!: string;

  @IsOptional()
  @IsBoolean()
  @Describe('also describe the transaction')
  contractinfo?: boolean;
}

/**
 * `GET txinfoMultiple`. `data` may be absent: the reference then looks up one empty hash, which is
 * refused as E_HASHWRONG.
 */
export class TxInfoMultipleForm {
  @IsOptional()
  @IsString()
  @Describe('comma-separated hashes')
  data?: string;

  @IsOptional()
  @IsBoolean()
  @Describe('also describe the transactions')
  contractinfo?: boolean;
}

/**
 * `POST txstatus`. The reference reads `data` with `r.FormValue` (the first of repeated values) and answers
 * E_HASHWRONG for text that is not that JSON object, so the handler parses it.
 */
export class TxStatusForm {
  @IsOptional()
  @FirstOfRepeated()
  @IsString()
  @Describe('JSON {"hashes": ["<hex>", …]}')
  data?: string;
}

/** `GET tx_record/:hashes`. */
export class TxRecordPath {
  @FromPath()
  @IsString()
  @Describe('comma-separated hashes')
  hashes!: string;
}

/** `sendTx txs`. */
export class SendTxParams {
  @IsObject()
  @Describe('name → transaction (base64 or hex); null is refused', s.map(s.string()))
  @NotEmptyParams()
  txs!: Record<string, unknown>;
}

/** `txStatus hashes`. */
export class TxStatusParams {
  @IsString()
  @Describe('comma-separated hashes; empty is refused')
  @NotEmptyParams()
  hashes!: string;
}

/** `txInfo hash [contractInfo]`. */
export class TxInfoParams {
  @IsString()
  @Describe('transaction hash (hex); empty is refused')
  @NotEmptyParams()
  hash!: string;

  @IsOptional()
  @IsBoolean()
  @Describe('also describe the transaction')
  contractInfo?: boolean;
}

/** A list of texts or null (Go's nil slice), refused with the text the reference's decoder gave. */
const IsStringListOrNull = () =>
  ValidateBy(
    {
      name: 'isStringListOrNull',
      validator: {
        validate: (value) =>
          value === null || (Array.isArray(value) && value.every((item) => typeof item === 'string')),
      },
    },
    { message: 'json: cannot unmarshal into Go value of type []string' },
  );

/** `txInfoMultiple hashes [contractInfo]`. */
export class TxInfoMultipleParams {
  // Refused as empty only once its shape passed, as the reference decodes before its handler looks.
  @NotEmptyParams()
  @IsJsonValue()
  @IsStringListOrNull()
  @Describe('transaction hashes; null is refused', s.array(s.hex()))
  hashes!: string[];

  @IsOptional()
  @IsBoolean()
  @Describe('also describe the transactions')
  contractInfo?: boolean;
}
