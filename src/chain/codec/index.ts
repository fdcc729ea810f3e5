export { CodecError } from './errors';
export { type HashFn, asciiBytes, bytesEqual, bytesOfHex, concatBytes, doubleHash, hexOf } from './bytes';
export {
  type FloatWire,
  type IntWire,
  MsgExt,
  MsgFloat,
  MsgInt,
  type MsgMap,
  MsgRaw,
  type MsgValue,
  type PlainValue,
  decode as decodeMsgpack,
  encode as encodeMsgpack,
  isMsgMap,
  mp,
  msgTypeName,
  toPlain,
} from './gomsgpack';
export { type DecodedLength, decodeLength, encodeLength, readLengthPrefixed } from './length';
export { TX_TYPE, type TxType, transactionTypeOf } from './tx-type';
export {
  SMART_TX_TYPE,
  type SmartTransaction,
  type SmartTxType,
  type TransferSelf,
  type UtxoTransfer,
  decodeSmartTransactionPayload,
  encodeSmartTransactionPayload,
  smartTransactionFromMap,
  smartTxType,
  txHash,
} from './smart-tx';
export {
  type ClientEnvelope,
  type ConvertedClientTransaction,
  type SmartContractEnvelope,
  type SmartContractEnvelopeInput,
  convertClientEnvelope,
  decodeClientEnvelope,
  decodeSmartContractEnvelope,
  encodeClientEnvelope,
  encodeSmartContractEnvelope,
} from './envelope';
export {
  type FirstBlockData,
  type FirstBlockTransaction,
  buildFirstBlockTransaction,
  decodeFirstBlockTransaction,
  encodeFirstBlockPayload,
} from './first-block';
export {
  type AfterTx,
  type AfterTxs,
  type BlockData,
  type BlockHeader,
  type LogTransaction,
  type RollbackTx,
  TX_INVOKE_STATUS,
  type TxResult,
  blockHeader,
  decodeBlockData,
  decodeBlockHeader,
  encodeBlockData,
  encodeBlockHeader,
} from './block-proto';
export {
  type BuildBlockInput,
  type BuiltBlock,
  type ParseBlockOptions,
  type ParsedBlock,
  type PrevBlockRef,
  type SignFn,
  blockHash,
  buildBlock,
  compressTx,
  compressTxLater,
  decompressTx,
  forSha,
  forSign,
  merkleRoot,
  parseBlock,
  verifyBlockHashes,
} from './block';
export { formatSize } from './size-string';
