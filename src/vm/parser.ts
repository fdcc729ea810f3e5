import type {
  AssignTarget,
  BinaryOperator,
  Block,
  CallArg,
  CallExpr,
  ContractDecl,
  DataField,
  Expr,
  ExtendCallExpr,
  FuncDecl,
  ParamDecl,
  SettingDecl,
  SourceAst,
  Stmt,
  TailCall,
  TailDecl,
  TopDecl,
  VarDeclStmt,
} from './ast';
import { CompileError } from './errors';
import { tokenize, type Token } from './lexer';
import { TYPE_NAMES, type TypeName, type Value } from './values';

const BINARY_PRECEDENCE: Record<string, number> = {
  '*': 30,
  '/': 30,
  '+': 25,
  '-': 25,
  '<': 22,
  '<=': 22,
  '>': 22,
  '>=': 22,
  '==': 20,
  '!=': 20,
  '&&': 15,
  '||': 10,
};

/**
 * The longest source the parser takes. Parsing and compiling run in one piece (about a megabyte and a half
 * a second here), so this bounds how long a `NewContract`, `EditContract` or `Eval` can keep the node from
 * answering others; the largest genesis contract is under 4 KB.
 */
export const MAX_SOURCE_LENGTH = 128 * 1024;

function tokensOf(source: string): Token[] {
  if (source.length > MAX_SOURCE_LENGTH) {
    throw new CompileError(
      `the source is too long (${source.length} characters, at most ${MAX_SOURCE_LENGTH})`,
      1,
      1,
    );
  }
  return tokenize(source);
}

export function parseSource(source: string): SourceAst {
  return new Parser(tokensOf(source)).parseSource();
}

/** Parses a single expression (used by the condition evaluator). */
export function parseExpression(source: string): Expr {
  const parser = new Parser(tokensOf(source));
  return parser.parseStandaloneExpression();
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'eof':
      return 'end of source';
    case 'newline':
      return 'end of line';
    case 'string':
      return `string "${token.text}"`;
    case 'extend':
      return `'$${token.text}'`;
    case 'contract':
      return `'@${token.text}'`;
    default:
      return `'${token.text}'`;
  }
}

class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  private get token(): Token {
    return this.tokens[this.pos];
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.tokens[this.pos];
    if (this.pos < this.tokens.length - 1) this.pos++;
    return token;
  }

  private fail(reason: string, at: Token = this.token): never {
    throw new CompileError(reason, at.line, at.column);
  }

  /** An error the reference's expression compiler reports, as it does: without the position. */
  private failBare(reason: string, at: Token = this.token): never {
    throw new CompileError(reason, at.line, at.column, false);
  }

  private unexpected(at: Token = this.token): never {
    this.fail(`unexpected ${describe(at)}`, at);
  }

  private is(kind: Token['kind'], text?: string): boolean {
    const token = this.token;
    return token.kind === kind && (text === undefined || token.text === text);
  }

  private isPunct(text: string): boolean {
    return this.is('punct', text);
  }

  private expectPunct(text: string): Token {
    if (!this.isPunct(text)) this.fail(`expecting '${text}' instead of ${describe(this.token)}`);
    return this.next();
  }

  private expectIdent(what = 'identifier'): Token {
    if (this.token.kind !== 'ident') this.fail(`expecting ${what} instead of ${describe(this.token)}`);
    return this.next();
  }

  private skipNewlines(): void {
    while (this.token.kind === 'newline') this.next();
  }

  /** The `{` of a block or section: like the reference, it may stand on the line after its header. */
  private openBrace(): Token {
    this.skipNewlines();
    return this.expectPunct('{');
  }

  /** In a name list a further name may follow without a comma (`var x y int`, `func g(a b int)`). */
  private isNameWithoutComma(): boolean {
    return this.token.kind === 'ident' && !TYPE_NAMES.has(this.token.text);
  }

  private endStatement(): void {
    if (this.token.kind === 'newline') {
      this.next();
      return;
    }
    if (this.isPunct('}') || this.token.kind === 'eof') return;
    this.unexpected();
  }

  parseSource(): SourceAst {
    const decls: TopDecl[] = [];
    this.skipNewlines();
    while (this.token.kind !== 'eof') {
      if (this.is('keyword', 'contract')) decls.push(this.parseContract());
      else if (this.is('keyword', 'func')) decls.push(this.parseFunc());
      else this.fail(`expecting 'contract' or 'func' instead of ${describe(this.token)}`);
      this.skipNewlines();
    }
    return { decls };
  }

  parseStandaloneExpression(): Expr {
    this.skipNewlines();
    const expr = this.parseExpression();
    this.skipNewlines();
    if (this.token.kind !== 'eof') this.unexpected();
    return expr;
  }

  private parseContract(): ContractDecl {
    const start = this.next();
    const nameToken = this.expectIdent('contract name');
    const contract: ContractDecl = {
      kind: 'contract',
      name: nameToken.text,
      fields: [],
      settings: [],
      funcs: [],
      conditions: null,
      action: null,
      line: start.line,
      column: start.column,
    };
    this.openBrace();
    this.skipNewlines();
    while (!this.isPunct('}')) {
      const token = this.token;
      if (token.kind === 'keyword' && token.text === 'data') {
        if (contract.fields.length > 0) this.fail(`data section has been already defined`);
        this.next();
        contract.fields = this.parseDataSection();
      } else if (token.kind === 'keyword' && token.text === 'settings') {
        this.next();
        contract.settings.push(...this.parseSettings());
      } else if (
        (token.kind === 'keyword' && (token.text === 'conditions' || token.text === 'action')) ||
        (token.kind === 'keyword' &&
          token.text === 'func' &&
          this.peek().kind === 'keyword' &&
          (this.peek().text === 'conditions' || this.peek().text === 'action'))
      ) {
        if (token.text === 'func') this.next();
        const sectionToken = this.next();
        const body = this.parseBlock();
        const section: FuncDecl = {
          kind: 'func',
          name: sectionToken.text,
          params: [],
          variadic: false,
          tails: [],
          results: [],
          body,
          line: sectionToken.line,
          column: sectionToken.column,
        };
        if (sectionToken.text === 'conditions') {
          if (contract.conditions) this.fail(`'conditions' has been already defined`, sectionToken);
          contract.conditions = section;
        } else {
          if (contract.action) this.fail(`'action' has been already defined`, sectionToken);
          contract.action = section;
        }
      } else if (token.kind === 'keyword' && token.text === 'func') {
        contract.funcs.push(this.parseFunc());
      } else {
        this.unexpected();
      }
      this.skipNewlines();
    }
    this.next();
    return contract;
  }

  private parseDataSection(): DataField[] {
    const fields: DataField[] = [];
    this.openBrace();
    this.skipNewlines();
    while (!this.isPunct('}')) {
      const names: Token[] = [];
      for (;;) {
        // A type word is never a name there: the reference's lexer reads it as a type, which needs a name first.
        const typeFirst =
          names.length === 0 && this.token.kind === 'ident' && TYPE_NAMES.has(this.token.text);
        if ((this.token.kind !== 'ident' && this.token.kind !== 'keyword') || typeFirst) {
          this.fail('expecting name of the data field');
        }
        names.push(this.next());
        if (!this.isPunct(',')) break;
        this.next();
      }
      const typeToken = this.token;
      if (typeToken.kind !== 'ident' || !TYPE_NAMES.has(typeToken.text)) {
        this.fail('expecting type of the data field');
      }
      this.next();
      let tags = '';
      if (this.peek(0).kind === 'string') tags = this.next().text;
      if (this.peek(0).kind !== 'newline' && !this.isPunct('}')) this.fail('unexpected tag');
      for (const name of names) {
        fields.push({
          name: name.text,
          type: typeToken.text as TypeName,
          tags,
          line: name.line,
          column: name.column,
        });
      }
      this.skipNewlines();
    }
    this.next();
    return fields;
  }

  private parseSettings(): SettingDecl[] {
    const settings: SettingDecl[] = [];
    this.openBrace();
    this.skipNewlines();
    while (!this.isPunct('}')) {
      const name = this.expectIdent('setting name');
      if (!this.is('op', '=')) this.fail(`expecting '=' instead of ${describe(this.token)}`);
      this.next();
      let negative = false;
      if (this.is('op', '-')) {
        negative = true;
        this.next();
      }
      const valueToken = this.next();
      let value: Value;
      if (valueToken.kind === 'int') value = negative ? -valueToken.intValue! : valueToken.intValue!;
      else if (valueToken.kind === 'float')
        value = negative ? -valueToken.floatValue! : valueToken.floatValue!;
      else if (valueToken.kind === 'string' && !negative) value = valueToken.text;
      else if (valueToken.kind === 'keyword' && (valueToken.text === 'true' || valueToken.text === 'false'))
        value = valueToken.text === 'true';
      else this.fail('unexpected lexeme; expecting string, int value or variable', valueToken);
      settings.push({ name: name.text, value, line: name.line, column: name.column });
      this.endStatement();
      this.skipNewlines();
    }
    this.next();
    return settings;
  }

  private parseType(): TypeName {
    const token = this.token;
    if (token.kind !== 'ident' || !TYPE_NAMES.has(token.text)) {
      this.fail(`expecting type instead of ${describe(token)}`);
    }
    this.next();
    return token.text as TypeName;
  }

  /**
   * Parameters `a, b int, c string`, `a b int` (names without commas), or a variadic last one `rest ...` /
   * `rest int ...`. Commas between groups may be left out too.
   */
  private parseParams(): { params: ParamDecl[]; variadic: boolean } {
    const params: ParamDecl[] = [];
    let variadic = false;
    this.expectPunct('(');
    let pending: Token[] = [];
    while (!this.isPunct(')')) {
      if (variadic) this.fail('variadic parameter must be the last one');
      const name = this.expectIdent('parameter name');
      pending.push(name);
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      if (this.isNameWithoutComma()) continue;
      let type: TypeName | null = null;
      if (!this.isPunct('...')) type = this.parseType();
      if (this.isPunct('...')) {
        this.next();
        variadic = true;
        if (pending.length > 1) this.fail('only the last parameter can be variadic', pending[0]);
      }
      for (const token of pending)
        params.push({ name: token.text, type, line: token.line, column: token.column });
      pending = [];
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct(')') && this.token.kind !== 'ident') this.unexpected();
    }
    if (pending.length > 0) this.fail('expecting type of the parameter', pending[pending.length - 1]);
    this.next();
    return { params, variadic };
  }

  /**
   * `func Name(params).Tail(params)… results {`. The header may continue on the next lines before a tail or
   * the results, and the last parameter of the function or of any tail may be variadic.
   */
  private parseFunc(): FuncDecl {
    const start = this.next();
    const nameToken = this.expectIdent('function name');
    let params: ParamDecl[] = [];
    let variadic = false;
    if (this.isPunct('(')) ({ params, variadic } = this.parseParams());
    const tails: TailDecl[] = [];
    this.skipNewlines();
    while (this.isPunct('.')) {
      this.next();
      this.skipNewlines();
      const tailName = this.expectIdent('tail name');
      const tail = this.parseParams();
      tails.push({
        name: tailName.text,
        params: tail.params,
        variadic: tail.variadic,
        line: tailName.line,
        column: tailName.column,
      });
      this.skipNewlines();
    }
    const results: TypeName[] = [];
    while (!this.isPunct('{')) {
      results.push(this.parseType());
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      this.skipNewlines();
      if (!this.isPunct('{')) this.unexpected();
    }
    const body = this.parseBlock();
    return {
      kind: 'func',
      name: nameToken.text,
      params,
      variadic,
      tails,
      results,
      body,
      line: start.line,
      column: start.column,
    };
  }

  private parseBlock(): Block {
    const open = this.openBrace();
    const statements: Stmt[] = [];
    this.skipNewlines();
    while (!this.isPunct('}')) {
      if (this.token.kind === 'eof') this.fail(`unclosed block`, open);
      statements.push(this.parseStatement());
      this.skipNewlines();
    }
    this.next();
    return { statements, line: open.line, column: open.column };
  }

  private parseStatement(): Stmt {
    const token = this.token;
    if (token.kind === 'keyword') {
      switch (token.text) {
        case 'var':
          return this.parseVarDecl();
        case 'if':
          return this.parseIf();
        case 'while': {
          this.next();
          const condition = this.parseExpression();
          const body = this.parseBlock();
          return { kind: 'while', condition, body, line: token.line, column: token.column };
        }
        case 'break':
        case 'continue':
          this.next();
          this.endStatement();
          return { kind: token.text, line: token.line, column: token.column };
        case 'return': {
          this.next();
          const values: Expr[] = [];
          if (this.token.kind !== 'newline' && !this.isPunct('}') && this.token.kind !== 'eof') {
            values.push(this.parseExpression());
            while (this.isPunct(',')) {
              this.next();
              values.push(this.parseExpression());
            }
          }
          this.endStatement();
          return { kind: 'return', values, line: token.line, column: token.column };
        }
        case 'error':
        case 'warning':
        case 'info': {
          this.next();
          const value = this.parseExpression();
          this.endStatement();
          return { kind: 'throw', level: token.text, value, line: token.line, column: token.column };
        }
        default:
          this.unexpected();
      }
    }
    if (
      (token.kind === 'ident' || token.kind === 'extend' || token.kind === 'contract') &&
      this.peek().kind === 'punct'
    ) {
      const after = this.peek();
      if (after.text === '(' && token.kind !== 'extend') {
        const expr = this.parseCall();
        this.endStatement();
        return { kind: 'expr', expr, line: token.line, column: token.column };
      }
      if (after.text === '(' && token.kind === 'extend') {
        const expr = this.parseExtendCall();
        this.endStatement();
        return { kind: 'expr', expr, line: token.line, column: token.column };
      }
    }
    if (token.kind === 'ident' || token.kind === 'extend') return this.parseAssignment();
    this.unexpected();
  }

  /** `var a, b int  s string`, also with names not separated by commas: `var x y int, s string`. */
  private parseVarDecl(): VarDeclStmt {
    const start = this.next();
    const vars: VarDeclStmt['vars'] = [];
    let pending: Token[] = [];
    while (this.token.kind !== 'newline' && !this.isPunct('}') && this.token.kind !== 'eof') {
      const name = this.expectIdent('variable name');
      pending.push(name);
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      if (this.isNameWithoutComma() || this.is('newline')) continue;
      const type = this.parseType();
      for (const token of pending)
        vars.push({ name: token.text, type, line: token.line, column: token.column });
      pending = [];
      if (this.isPunct(',')) this.next();
    }
    if (pending.length > 0) this.fail('expecting type of the variable', pending[pending.length - 1]);
    if (vars.length === 0) this.fail('expecting variable name', start);
    this.endStatement();
    return { kind: 'varDecl', vars, line: start.line, column: start.column };
  }

  private parseIf(): Stmt {
    const start = this.next();
    const condition = this.parseExpression();
    const then = this.parseBlock();
    let otherwise: Block | null = null;
    // `else`/`elif` may follow on the next line.
    const save = this.pos;
    this.skipNewlines();
    if (this.is('keyword', 'elif')) {
      const nested = this.parseIf();
      otherwise = { statements: [nested], line: nested.line, column: nested.column };
      return { kind: 'if', condition, then, otherwise, line: start.line, column: start.column };
    }
    if (this.is('keyword', 'else')) {
      this.next();
      this.skipNewlines();
      if (this.is('keyword', 'if')) {
        const nested = this.parseIf();
        otherwise = { statements: [nested], line: nested.line, column: nested.column };
      } else {
        otherwise = this.parseBlock();
        this.endStatement();
      }
    } else {
      this.pos = save;
      this.endStatement();
    }
    return { kind: 'if', condition, then, otherwise, line: start.line, column: start.column };
  }

  private parseAssignTarget(): AssignTarget {
    const token = this.next();
    if (token.kind !== 'ident' && token.kind !== 'extend') this.unexpected(token);
    const base =
      token.kind === 'ident'
        ? ({ kind: 'var', name: token.text, line: token.line, column: token.column } as const)
        : ({ kind: 'extend', name: token.text, line: token.line, column: token.column } as const);
    if (!this.isPunct('[')) return base;
    const open = this.next();
    const index = this.parseExpression();
    this.expectPunct(']');
    if (this.isPunct('[')) this.failBare('multi-index is not supported');
    return { kind: 'index', target: base, index, line: open.line, column: open.column };
  }

  /** `a = x`, `a, b = f()` (one call with several results) or `a, b = 1, 2` (one value per target). */
  private parseAssignment(): Stmt {
    const start = this.token;
    const targets: AssignTarget[] = [this.parseAssignTarget()];
    while (this.isPunct(',')) {
      this.next();
      targets.push(this.parseAssignTarget());
    }
    if (!this.is('op', '=')) this.unexpected();
    this.next();
    // Nothing after `=` but the end of the block: the reference's words.
    if (this.isPunct('}') || this.token.kind === 'eof') this.failBare('there is not eval expression');
    const values: Expr[] = [this.parseExpression()];
    while (this.isPunct(',')) {
      this.next();
      values.push(this.parseExpression());
    }
    this.endStatement();
    return { kind: 'assign', targets, values, line: start.line, column: start.column };
  }

  parseExpression(minPrecedence = 0): Expr {
    let left = this.parseUnary();
    for (;;) {
      const token = this.token;
      if (token.kind !== 'op') break;
      const precedence = BINARY_PRECEDENCE[token.text];
      if (precedence === undefined || precedence <= minPrecedence) break;
      this.next();
      const right = this.parseExpression(precedence);
      left = {
        kind: 'binary',
        operator: token.text as BinaryOperator,
        left,
        right,
        line: token.line,
        column: token.column,
      };
    }
    return left;
  }

  private parseUnary(): Expr {
    const token = this.token;
    if (token.kind === 'op' && (token.text === '-' || token.text === '!')) {
      this.next();
      const operand = this.parseUnary();
      if (
        token.text === '-' &&
        operand.kind === 'literal' &&
        typeof operand.value === 'bigint' &&
        operand.value > 0n
      ) {
        return { ...operand, value: -operand.value, line: token.line, column: token.column };
      }
      return { kind: 'unary', operator: token.text, operand, line: token.line, column: token.column };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const token = this.token;
    switch (token.kind) {
      case 'int':
        this.next();
        return { kind: 'literal', value: token.intValue!, line: token.line, column: token.column };
      case 'float':
        this.next();
        return { kind: 'literal', value: token.floatValue!, line: token.line, column: token.column };
      case 'string':
        this.next();
        return { kind: 'literal', value: token.text, line: token.line, column: token.column };
      case 'keyword':
        if (token.text === 'true' || token.text === 'false' || token.text === 'nil') {
          this.next();
          const value = token.text === 'nil' ? null : token.text === 'true';
          return { kind: 'literal', value, line: token.line, column: token.column };
        }
        this.unexpected();
      // eslint-disable-next-line no-fallthrough
      case 'ident':
      case 'contract':
        if (this.peek().kind === 'punct' && this.peek().text === '(') return this.parseCall();
        if (token.kind === 'contract') this.fail(`expecting '(' after @${token.text}`, this.peek());
        this.next();
        return this.parseIndexSuffix({
          kind: 'var',
          name: token.text,
          line: token.line,
          column: token.column,
        });
      case 'extend':
        if (this.peek().kind === 'punct' && this.peek().text === '(') return this.parseExtendCall();
        this.next();
        return this.parseIndexSuffix({
          kind: 'extend',
          name: token.text,
          line: token.line,
          column: token.column,
        });
      case 'punct':
        if (token.text === '(') {
          this.next();
          const inner = this.parseExpression();
          this.expectPunct(')');
          if (this.isPunct('[')) this.unexpected();
          return inner;
        }
        if (token.text === '{') return this.parseMapLiteral();
        if (token.text === '[') return this.parseArrayLiteral();
        this.fail(`unexpected ${describe(token)}; expecting operand`);
      // eslint-disable-next-line no-fallthrough
      default:
        if (token.kind === 'op') this.failBare('unexpected operator; expecting operand');
        if (token.kind === 'newline' || token.kind === 'eof')
          this.failBare('unexpected end of the expression');
        this.unexpected();
    }
  }

  private parseIndexSuffix(target: {
    kind: 'var' | 'extend';
    name: string;
    line: number;
    column: number;
  }): Expr {
    if (!this.isPunct('[')) return target;
    const open = this.next();
    const index = this.parseExpression();
    this.expectPunct(']');
    if (this.isPunct('[')) this.failBare('multi-index is not supported');
    return { kind: 'index', target, index, line: open.line, column: open.column };
  }

  private parseArgs(): CallArg[] {
    this.expectPunct('(');
    const args: CallArg[] = [];
    while (!this.isPunct(')')) {
      const expr = this.parseExpression();
      let spread = false;
      if (this.isPunct('...')) {
        this.next();
        spread = true;
      }
      args.push({ expr, spread });
      if (this.isPunct(',')) this.next();
      else if (!this.isPunct(')')) this.fail(`unexpected ${describe(this.token)}; expecting comma`);
    }
    this.next();
    return args;
  }

  private parseCall(): CallExpr {
    const token = this.next();
    const args = this.parseArgs();
    const tails: TailCall[] = [];
    for (;;) {
      // A chain may continue on the next line: `DBFind("t")\n  .Where(...)`.
      let lookahead = 0;
      while (this.peek(lookahead).kind === 'newline') lookahead++;
      const dot = this.peek(lookahead);
      const name = this.peek(lookahead + 1);
      const paren = this.peek(lookahead + 2);
      if (!(
        dot.kind === 'punct' &&
        dot.text === '.' &&
        name.kind === 'ident' &&
        paren.kind === 'punct' &&
        paren.text === '('
      ))
        break;
      this.pos += lookahead + 2;
      tails.push({ name: name.text, args: this.parseArgs(), line: name.line, column: name.column });
    }
    if (this.isPunct('[')) this.unexpected();
    return {
      kind: 'call',
      name: token.text,
      prefixed: token.kind === 'contract',
      args,
      tails,
      line: token.line,
      column: token.column,
    };
  }

  private parseExtendCall(): ExtendCallExpr {
    const token = this.next();
    const args = this.parseArgs();
    return { kind: 'extendCall', name: token.text, args, line: token.line, column: token.column };
  }

  /** Literal elements may only be literals, variables, `$vars` or nested literals. */
  private parseLiteralElement(): Expr {
    const token = this.token;
    switch (token.kind) {
      case 'int':
      case 'float':
      case 'string':
        return this.parsePrimary();
      case 'keyword':
        if (token.text === 'true' || token.text === 'false' || token.text === 'nil')
          return this.parsePrimary();
        break;
      case 'ident':
        if (!(this.peek().kind === 'punct' && this.peek().text === '(')) return this.parsePrimary();
        break;
      case 'extend':
        if (!(this.peek().kind === 'punct' && this.peek().text === '(')) return this.parsePrimary();
        break;
      case 'op':
        if (token.text === '-' && (this.peek().kind === 'int' || this.peek().kind === 'float'))
          return this.parseUnary();
        break;
      case 'punct':
        if (token.text === '{') return this.parseMapLiteral();
        if (token.text === '[') return this.parseArrayLiteral();
        break;
      default:
        break;
    }
    this.failBare('unexpected lexeme; expecting string, int value or variable');
  }

  /** Literal elements cannot be expressions: an operator after one is reported as such. */
  private rejectExpressionInLiteral(): void {
    if (this.token.kind === 'op') this.failBare('unexpected lexeme; expecting string, int value or variable');
  }

  private parseMapKey(): string {
    const token = this.token;
    if (token.kind === 'ident' || token.kind === 'keyword' || token.kind === 'string') {
      this.next();
      return token.text;
    }
    if (token.kind === 'extend') {
      this.next();
      return '$' + token.text;
    }
    this.failBare('unexpected lexeme; expecting string key');
  }

  private parseMapEntries(open: Token): Array<[string, Expr]> {
    const entries: Array<[string, Expr]> = [];
    this.skipNewlines();
    while (!this.isPunct('}')) {
      if (this.token.kind === 'eof') this.failBare('unclosed map initialization', open);
      const key = this.parseMapKey();
      if (!this.isPunct(':')) this.failBare('unexpected lexeme; expecting colon');
      this.next();
      this.skipNewlines();
      entries.push([key, this.parseLiteralElement()]);
      this.rejectExpressionInLiteral();
      this.skipNewlines();
      if (this.isPunct(',')) {
        this.next();
        this.skipNewlines();
      } else if (!this.isPunct('}')) this.failBare('unexpected lexeme; expecting comma');
    }
    this.next();
    return entries;
  }

  private parseMapLiteral(): Expr {
    const open = this.next();
    return { kind: 'map', entries: this.parseMapEntries(open), line: open.line, column: open.column };
  }

  private parseArrayLiteral(): Expr {
    const open = this.next();
    const items: Expr[] = [];
    this.skipNewlines();
    while (!this.isPunct(']')) {
      if (this.token.kind === 'eof') this.failBare('unclosed array initialization', open);
      const keyToken = this.token;
      const isKeyed =
        (keyToken.kind === 'ident' ||
          keyToken.kind === 'string' ||
          keyToken.kind === 'keyword' ||
          keyToken.kind === 'extend') &&
        this.peek().kind === 'punct' &&
        this.peek().text === ':';
      if (isKeyed) {
        // Inside an array, `a: 1` makes a one-key map.
        const key = this.parseMapKey();
        this.next();
        this.skipNewlines();
        const value = this.parseLiteralElement();
        items.push({ kind: 'map', entries: [[key, value]], line: keyToken.line, column: keyToken.column });
      } else {
        items.push(this.parseLiteralElement());
      }
      this.rejectExpressionInLiteral();
      this.skipNewlines();
      if (this.isPunct(',')) {
        this.next();
        this.skipNewlines();
      } else if (!this.isPunct(']')) this.failBare('unexpected lexeme; expecting comma');
    }
    this.next();
    return { kind: 'array', items, line: open.line, column: open.column };
  }
}
