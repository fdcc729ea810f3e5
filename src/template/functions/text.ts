import { addressToId, keyIdToAddress } from '../../crypto/address';
import { calculate, decimalText, TemplateDecimal } from '../calculate';
import type { Call } from '../call';
import { numberOf } from './numbers';
import { isShown, shown } from './port-errors';

/** Longest `Money` amount, in characters (the reference's consts.MoneyLength). */
const MONEY_LENGTH = 30;
/** `Money` digits when the ecosystem has no `money_digit` (the reference's consts.MoneyDigits). */
const DEFAULT_MONEY_DIGITS = 12;

export function lowerTag(c: Call): string {
  return c.r.macro(c.pars.Text).toLowerCase();
}

export async function moneyTag(c: Call): Promise<string> {
  const r = c.r;
  let amount = r.macro(c.pars.Exp);
  if (amount === 'NULL' || amount === '') amount = '0';
  if (amount.includes('.')) return 'wrong money';
  let digits: number;
  if (c.pars.Digit) {
    digits = numberOf(r.macro(c.pars.Digit));
  } else {
    const value = await shown(() => r.port.ecosystemParam(r.getVar('ecosystem_id'), 'money_digit'));
    digits = isShown(value) || value === undefined ? DEFAULT_MONEY_DIGITS : numberOf(value);
  }
  if (amount.length > MONEY_LENGTH) return 'invalid money value';
  if (digits === 0) return amount;
  if (!/^[+-]?\d+$/.test(amount)) return 'wrong money';
  return decimalText(new TemplateDecimal(amount).times(new TemplateDecimal(10).pow(-digits)));
}

export function calculateTag(c: Call): string {
  return calculate(c.r.macro(c.pars.Exp), c.pars.Type, c.r.macro(c.pars.Prec));
}

export function cmpTimeTag(c: Call): string {
  const prepare = (value: string): string => c.r.macro(value).replace(/T/g, ' ').slice(0, 19);
  const left = prepare(c.pars.Time1);
  const right = prepare(c.pars.Time2);
  return left === right ? '0' : left < right ? '-1' : '1';
}

export async function addressTag(c: Call): Promise<string> {
  const r = c.r;
  const wallet = c.pars.Wallet || r.getVar('key_id');
  const text = await r.processToText(r.macro(wallet));
  const id = /^[+-]?\d+$/.test(text) ? BigInt(text) : 0n;
  if (id === 0n || id > 0x7fffffffffffffffn || id < -0x8000000000000000n) return 'unknown address';
  return keyIdToAddress(id);
}

export async function addressToIdTag(c: Call): Promise<string> {
  const r = c.r;
  if (!c.pars.Wallet) return r.getVar('key_id');
  const id = addressToId(await r.processToText(r.macro(c.pars.Wallet)));
  return id.toString();
}
