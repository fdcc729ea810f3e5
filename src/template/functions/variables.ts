import type { Call } from '../call';

export async function setVarTag(c: Call): Promise<string> {
  const name = c.pars.Name;
  if (name) {
    let value = c.pars.Value;
    if (/[({]/.test(value)) value = await c.r.processToText(value);
    c.r.setVar(name, c.r.macroReplace(value));
  }
  return '';
}

export function varAsIsTag(c: Call): string {
  const name = c.pars.Name;
  if (name) {
    let value = c.pars.Value;
    if (value.startsWith('#')) {
      const found = c.r.vars.get(value.replace(/^#+|#+$/g, ''));
      if (found) value = found.value;
    } else {
      const found = c.r.vars.get(value);
      if (found) value = found.value;
    }
    c.r.setVar(name, value, true);
  }
  return '';
}

export function getVarTag(c: Call): string {
  return c.pars.Name ? c.r.macro(c.r.getVar(c.pars.Name)) : '';
}
