/**
 * The contract-language compiler. Its parts follow the language: declarations (`compiler/declarations.ts`),
 * statements, expressions and calls, over a shared function-body context; other code imports it from here.
 */
export { compileSource, SourceCompiler, type CompiledSource } from './compiler/declarations';
export type { CompileEnv, CompileOptions } from './compiler/environment';
export { DATA_FIELD_NAME, objectKey, resolveContractKey, splitPrefixedName } from './compiler/names';
export { FUNC_CALL_PRICE } from './function';

export const CONTRACT_CALL_PRICE = 100;
