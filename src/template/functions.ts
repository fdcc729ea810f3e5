import type { Handler } from './call';
import {
  actionTag,
  alertTag,
  buttonTag,
  compositeTag,
  errorRedirectTag,
  popupTag,
} from './functions/buttons';
import { andOr, elseFull, elseIfFull, elseIfTag, elseTag, ifFull, ifTag } from './functions/conditions';
import { customFull, customTag } from './functions/custom-columns';
import {
  arrayToSourceTag,
  dataTag,
  forListTag,
  getHistoryTag,
  jsonToSourceTag,
  rangeTag,
} from './functions/data-sources';
import {
  appParamTag,
  binaryTag,
  columnTypeTag,
  ecosysParamTag,
  includeTag,
  langResTag,
  sysParamTag,
  txInfoTag,
} from './functions/database-reads';
import { dateTimeTag } from './functions/date-time';
import { dbFindTag } from './functions/dbfind';
import { chartTag, imageTag, menuGroupTag, tableTag } from './functions/elements';
import { showHide, validateTag } from './functions/form-tails';
import { defaultTag, defaultTailFull, defaultTailTag, tailTag } from './functions/nodes';
import { addressTag, addressToIdTag, calculateTag, cmpTimeTag, lowerTag, moneyTag } from './functions/text';
import { getVarTag, setVarTag, varAsIsTag } from './functions/variables';

export { ifValue } from './functions/conditions';
export { strToInt } from './functions/numbers';

export interface Implementation {
  run: Handler;
  full: Handler;
}

function both(handler: Handler): Implementation {
  return { run: handler, full: handler };
}

function inline(handler: Handler): Implementation {
  return { run: handler, full: defaultTag };
}

function tail(run: Handler, full: Handler = defaultTailFull): Implementation {
  return { run, full };
}

/**
 * Whether a function only turns its text into a node (its parameters as attributes, its body as children):
 * such a call, when its text holds no macro and no label, renders the same on every page.
 */
export function isPlainTag(name: string): boolean {
  const impl = IMPLEMENTATIONS.get(name);
  return impl !== undefined && (impl.run === defaultTag || impl.run === defaultTailTag);
}

/** Handlers by function (and tail) name: the normal one and the source-mode one. */
export const IMPLEMENTATIONS = new Map<string, Implementation>([
  ['AddToolButton', both(defaultTailTag)],
  ['Address', inline(addressTag)],
  ['AddressToId', inline(addressToIdTag)],
  ['And', inline((c) => andOr(c, false))],
  ['AppParam', inline(appParamTag)],
  ['ArrayToSource', inline(arrayToSourceTag)],
  ['Binary', inline(binaryTag)],
  ['Button', both(buttonTag)],
  ['Calculate', inline(calculateTag)],
  ['Chart', { run: chartTag, full: defaultTailTag }],
  ['CmpTime', inline(cmpTimeTag)],
  ['Code', both(defaultTag)],
  ['CodeAsIs', both(defaultTag)],
  ['Data', { run: dataTag, full: defaultTailTag }],
  ['DateTime', inline(dateTimeTag)],
  ['DBFind', { run: dbFindTag, full: defaultTailTag }],
  ['Div', both(defaultTailTag)],
  ['EcosysParam', inline(ecosysParamTag)],
  ['Em', both(defaultTag)],
  ['ForList', inline(forListTag)],
  ['Form', both(defaultTailTag)],
  ['GetColumnType', inline(columnTypeTag)],
  ['GetHistory', inline(getHistoryTag)],
  ['GetVar', inline(getVarTag)],
  ['Hint', both(defaultTag)],
  ['If', { run: ifTag, full: ifFull }],
  ['Image', { run: imageTag, full: defaultTailTag }],
  ['ImageInput', both(defaultTag)],
  ['Include', inline(includeTag)],
  ['Input', both(defaultTailTag)],
  ['InputErr', both(defaultTag)],
  ['InputMap', both(defaultTailTag)],
  ['JsonToSource', inline(jsonToSourceTag)],
  ['Label', both(defaultTailTag)],
  ['LangRes', inline(langResTag)],
  ['LinkPage', both(defaultTailTag)],
  ['Lower', inline(lowerTag)],
  ['Map', both(defaultTag)],
  ['MenuGroup', inline(menuGroupTag)],
  ['MenuItem', both(defaultTag)],
  ['Money', inline(moneyTag)],
  ['Or', inline((c) => andOr(c, true))],
  ['P', both(defaultTailTag)],
  ['QRcode', both(defaultTag)],
  ['RadioGroup', both(defaultTailTag)],
  ['Range', inline(rangeTag)],
  ['Select', both(defaultTailTag)],
  ['SetTitle', both(defaultTag)],
  ['SetVar', inline(setVarTag)],
  ['Span', both(defaultTailTag)],
  ['Strong', both(defaultTag)],
  ['SysParam', inline(sysParamTag)],
  ['Table', { run: tableTag, full: defaultTailTag }],
  ['TransactionInfo', inline(txInfoTag)],
  ['VarAsIs', inline(varAsIsTag)],
  // Tails.
  ['Action', tail(actionTag)],
  ['Alert', tail(alertTag)],
  ['Popup', tail(popupTag)],
  ['Style', tail(tailTag)],
  ['CompositeContract', tail(compositeTag)],
  ['ErrorRedirect', tail(errorRedirectTag)],
  ['Show', tail((c) => showHide(c, 'show'))],
  ['Hide', tail((c) => showHide(c, 'hide'))],
  ['Else', tail(elseTag, elseFull)],
  ['ElseIf', tail(elseIfTag, elseIfFull)],
  ['Validate', tail(validateTag)],
  ['Custom', tail(customTag, customFull)],
  ['Columns', tail(tailTag)],
  ['Count', tail(tailTag)],
  ['Where', tail(tailTag)],
  ['WhereId', tail(tailTag)],
  ['Order', tail(tailTag)],
  ['Limit', tail(tailTag)],
  ['Offset', tail(tailTag)],
  ['Vars', tail(tailTag)],
  ['Cutoff', tail(tailTag)],
  ['ById', tail(tailTag)],
  ['Ecosystem', tail(tailTag)],
]);
