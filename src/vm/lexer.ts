import { CompileError } from './errors';
import { INT64_MAX } from './values';

export type TokenKind =
  | 'ident' // plain identifier (also type names)
  | 'keyword'
  | 'extend' // $name
  | 'contract' // @1Name, @Name
  | 'int'
  | 'float'
  | 'string'
  | 'op' // + - * / < <= > >= == != ! && || =
  | 'punct' // ( ) [ ] { } , : . ...
  | 'newline' // statement end: a newline or ';'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** Identifier/keyword/operator text, the name after `$`/`@`, or the decoded string value. */
  text: string;
  intValue?: bigint;
  floatValue?: number;
  line: number;
  column: number;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'contract',
  'func',
  'data',
  'settings',
  'conditions',
  'action',
  'if',
  'elif',
  'else',
  'while',
  'break',
  'continue',
  'return',
  'var',
  'error',
  'warning',
  'info',
  'true',
  'false',
  'nil',
]);

const TWO_CHAR_OPERATORS = new Set(['<=', '>=', '==', '!=', '&&', '||']);
const ONE_CHAR_OPERATORS = new Set(['+', '-', '*', '/', '<', '>', '!', '=']);
const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', ':', '.']);

function isIdentStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code >= 128;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isIdentPart(code: number): boolean {
  return isIdentStart(code) || isDigit(code);
}

/**
 * Splits source text into tokens. A newline (or `;`) becomes a statement end, except after `,` or an
 * operator and inside parentheses, so long expressions and argument lists may wrap.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  let parenDepth = 0;
  const length = source.length;

  const fail = (reason: string, atLine: number, atColumn: number): never => {
    throw new CompileError(reason, atLine, atColumn);
  };

  const pushStatementEnd = (atLine: number, atColumn: number, explicit: boolean): void => {
    const previous = tokens[tokens.length - 1];
    if (!explicit) {
      if (parenDepth > 0) return;
      if (previous && (previous.kind === 'op' || (previous.kind === 'punct' && previous.text === ',')))
        return;
    }
    if (previous === undefined || previous.kind === 'newline') return;
    tokens.push({ kind: 'newline', text: '\n', line: atLine, column: atColumn });
  };

  while (pos < length) {
    const code = source.charCodeAt(pos);
    const column = pos - lineStart + 1;

    if (code === 10) {
      pushStatementEnd(line, column, false);
      pos++;
      line++;
      lineStart = pos;
      continue;
    }
    if (code === 32 || code === 9 || code === 13) {
      pos++;
      continue;
    }
    if (code === 59 /* ; */) {
      pushStatementEnd(line, column, true);
      pos++;
      continue;
    }
    if (code === 47 /* / */ && source.charCodeAt(pos + 1) === 47) {
      while (pos < length && source.charCodeAt(pos) !== 10) pos++;
      continue;
    }
    if (code === 47 && source.charCodeAt(pos + 1) === 42 /* * */) {
      const end = source.indexOf('*/', pos + 2);
      if (end < 0) fail('unclosed comment', line, column);
      for (let i = pos; i < end; i++) {
        if (source.charCodeAt(i) === 10) {
          line++;
          lineStart = i + 1;
        }
      }
      pos = end + 2;
      continue;
    }

    // `.21` is a float: a dot that starts a number cannot start a tail name or `...`.
    const leadingDot = code === 46 && isDigit(source.charCodeAt(pos + 1));
    if (isDigit(code) || leadingDot) {
      let end = pos;
      while (end < length && isDigit(source.charCodeAt(end))) end++;
      let isFloat = false;
      if (source.charCodeAt(end) === 46 /* . */ && isDigit(source.charCodeAt(end + 1))) {
        isFloat = true;
        end++;
        while (end < length && isDigit(source.charCodeAt(end))) end++;
      }
      if (end < length && isIdentStart(source.charCodeAt(end))) {
        fail(`unexpected character '${source[end]}' in a number`, line, end - lineStart + 1);
      }
      const text = source.slice(pos, end);
      if (isFloat) {
        tokens.push({ kind: 'float', text, floatValue: Number(text), line, column });
      } else {
        const intValue = BigInt(text);
        // Go's strconv words, as the reference's lexer reports them (its column is after the number).
        if (intValue > INT64_MAX)
          fail(`strconv.ParseInt: parsing "${text}": value out of range ${text}`, line, column);
        tokens.push({ kind: 'int', text, intValue, line, column });
      }
      pos = end;
      continue;
    }

    if (isIdentStart(code)) {
      let end = pos + 1;
      while (end < length && isIdentPart(source.charCodeAt(end))) end++;
      const text = source.slice(pos, end);
      tokens.push({ kind: KEYWORDS.has(text) ? 'keyword' : 'ident', text, line, column });
      pos = end;
      continue;
    }

    if (code === 36 /* $ */ || code === 64 /* @ */) {
      let end = pos + 1;
      while (end < length && isIdentPart(source.charCodeAt(end))) end++;
      const name = source.slice(pos + 1, end);
      if (name.length === 0) fail(`unexpected character '${source[pos]}'`, line, column);
      if (code === 36 && isDigit(name.charCodeAt(0))) fail(`wrong variable name $${name}`, line, column);
      tokens.push({ kind: code === 36 ? 'extend' : 'contract', text: name, line, column });
      pos = end;
      continue;
    }

    if (code === 34 /* " */ || code === 96 /* ` */) {
      const startLine = line;
      let end = pos + 1;
      let text = '';
      let segmentStart = end;
      for (;;) {
        if (end >= length) fail('unclosed string', startLine, column);
        const c = source.charCodeAt(end);
        if (c === code) break;
        if (c === 10) {
          line++;
          lineStart = end + 1;
        }
        if (code === 34 && c === 92 /* \ */) {
          const next = source[end + 1];
          const replacement =
            next === '"' ? '"' : next === 't' ? '\t' : next === 'r' ? '\r' : next === 'n' ? '\n' : null;
          if (replacement !== null) {
            text += source.slice(segmentStart, end) + replacement;
            end += 2;
            segmentStart = end;
            continue;
          }
          // Any other escaped character is kept with its backslash, but cannot end the string.
          if (next === '\n') {
            line++;
            lineStart = end + 2;
          }
          end += 2;
          continue;
        }
        end++;
      }
      text += source.slice(segmentStart, end);
      tokens.push({ kind: 'string', text, line: startLine, column });
      pos = end + 1;
      continue;
    }

    if (code === 46 && source.startsWith('...', pos)) {
      tokens.push({ kind: 'punct', text: '...', line, column });
      pos += 3;
      continue;
    }
    const two = source.slice(pos, pos + 2);
    if (TWO_CHAR_OPERATORS.has(two)) {
      tokens.push({ kind: 'op', text: two, line, column });
      pos += 2;
      continue;
    }
    const one = source[pos];
    if (ONE_CHAR_OPERATORS.has(one)) {
      tokens.push({ kind: 'op', text: one, line, column });
      pos++;
      continue;
    }
    if (PUNCTUATION.has(one)) {
      if (one === '(') parenDepth++;
      else if (one === ')' && parenDepth > 0) parenDepth--;
      tokens.push({ kind: 'punct', text: one, line, column });
      pos++;
      continue;
    }
    // `#` is a lexeme of the reference that no construct uses (src/vm/README.md, "Strict on purpose").
    fail(one === '#' ? `unknown character '#'` : `unknown lexeme '${one}'`, line, column);
  }
  pushStatementEnd(line, pos - lineStart + 1, false);
  tokens.push({ kind: 'eof', text: '', line, column: pos - lineStart + 1 });
  return tokens;
}
