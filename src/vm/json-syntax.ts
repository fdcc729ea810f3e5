/**
 * The syntax check of the reference's JSONDecode (Go's json.Unmarshal): the reason a text is not one JSON
 * value, in Go's words — "unexpected end of JSON input" (nothing, or the value cut short), "invalid
 * character 'x' <context>" (the first byte that cannot be there, the context saying what was expected,
 * "after top-level value" for anything after the value) and, past 10000 levels of nesting, "invalid
 * character '[' exceeded max depth". The newest reference reads with a json Decoder instead and says
 * "unmarshalling json: EOF" / "unmarshalling json: unexpected EOF" (docs/error-texts.md).
 */

/** Go's encoding/json nests at most this deep. */
const MAX_DEPTH = 10_000;

const END_OF_INPUT = 'unexpected end of JSON input';

class Failure {
  constructor(readonly message: string) {}
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/** Escapes of strconv.Quote for the characters below a space that have a short form. */
const SHORT_ESCAPES: Record<number, string> = {
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
};

/**
 * The character as Go's scanner quotes it: it looks at one byte, so a character beyond ASCII shows as its
 * first UTF-8 byte read as a Latin-1 letter (é → 'Ã'); other bytes as strconv.Quote writes them.
 */
function quoteByte(text: string, at: number): string {
  const point = text.codePointAt(at)!;
  let byte = point;
  if (point >= 0x80)
    byte =
      point < 0x800 ? 0xc0 | (point >> 6) : point < 0x10000 ? 0xe0 | (point >> 12) : 0xf0 | (point >> 18);
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x5c) return `'\\\\'`;
  if (SHORT_ESCAPES[byte]) return `'${SHORT_ESCAPES[byte]}'`;
  if (byte < 0x20 || byte === 0x7f) return `'\\x${byte.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(byte)}'`;
}

class Scanner {
  private pos = 0;

  constructor(private readonly text: string) {}

  private code(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  /** The current character cannot be here; at the end of the text the value was cut short. */
  private fail(context: string): never {
    if (this.pos >= this.text.length) throw new Failure(END_OF_INPUT);
    throw new Failure(`invalid character ${quoteByte(this.text, this.pos)} ${context}`);
  }

  private skipSpaces(): void {
    while (isSpace(this.code())) this.pos++;
  }

  /** Checks that the text is one value, with nothing but spaces around it. */
  scan(): void {
    this.scanFirst();
    this.skipSpaces();
    if (this.pos < this.text.length) this.fail('after top-level value');
  }

  /** Where the first value ends. */
  private scanFirst(): number {
    this.skipSpaces();
    if (this.pos >= this.text.length) throw new Failure(END_OF_INPUT);
    // Open containers: true for an object, false for an array.
    const open: boolean[] = [];
    for (;;) {
      this.scanValue(open);
      // After a value: close what it ends, or go on to the next member or element.
      for (;;) {
        if (open.length === 0) return this.pos;
        this.skipSpaces();
        const inObject = open[open.length - 1];
        const code = this.code();
        if (code === 0x2c) {
          this.pos++;
          this.skipSpaces();
          if (inObject) this.scanKey();
          break;
        }
        if (code === (inObject ? 0x7d : 0x5d)) {
          this.pos++;
          open.pop();
          continue;
        }
        this.fail(inObject ? 'after object key:value pair' : 'after array element');
      }
    }
  }

  /** One value, or the opening of a container with its first key (objects) — then the caller goes on. */
  private scanValue(open: boolean[]): void {
    for (;;) {
      this.skipSpaces();
      const code = this.code();
      if (code === 0x7b || code === 0x5b) {
        if (open.length >= MAX_DEPTH)
          throw new Failure(`invalid character ${quoteByte(this.text, this.pos)} exceeded max depth`);
        this.pos++;
        this.skipSpaces();
        if (code === 0x7b) {
          if (this.code() === 0x7d) {
            this.pos++;
            return;
          }
          open.push(true);
          this.scanKey();
          continue;
        }
        if (this.code() === 0x5d) {
          this.pos++;
          return;
        }
        open.push(false);
        continue;
      }
      if (code === 0x22) return this.scanString();
      if (code === 0x2d || isDigit(code)) return this.scanNumber();
      if (code === 0x74) return this.scanLiteral('true');
      if (code === 0x66) return this.scanLiteral('false');
      if (code === 0x6e) return this.scanLiteral('null');
      this.fail('looking for beginning of value');
    }
  }

  /** `"key"` and its colon. */
  private scanKey(): void {
    if (this.code() !== 0x22) this.fail('looking for beginning of object key string');
    this.scanString();
    this.skipSpaces();
    if (this.code() !== 0x3a) this.fail('after object key');
    this.pos++;
  }

  private scanString(): void {
    this.pos++;
    for (;;) {
      const code = this.code();
      if (code === 0x22) {
        this.pos++;
        return;
      }
      if (code < 0x20) this.fail('in string literal');
      if (code === 0x5c) {
        this.pos++;
        const escape = this.code();
        if (escape === 0x75) {
          this.pos++;
          for (let i = 0; i < 4; i++, this.pos++) {
            if (!isHex(this.code())) this.fail('in \\u hexadecimal character escape');
          }
          continue;
        }
        // " \ / b f n r t
        if (![0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(escape))
          this.fail('in string escape code');
      }
      this.pos++;
    }
  }

  private scanNumber(): void {
    if (this.code() === 0x2d) {
      this.pos++;
      if (!isDigit(this.code())) this.fail('in numeric literal');
    }
    if (this.code() === 0x30) this.pos++;
    else while (isDigit(this.code())) this.pos++;
    if (this.code() === 0x2e) {
      this.pos++;
      if (!isDigit(this.code())) this.fail('after decimal point in numeric literal');
      while (isDigit(this.code())) this.pos++;
    }
    const exponent = this.code();
    if (exponent === 0x65 || exponent === 0x45) {
      this.pos++;
      if (this.code() === 0x2b || this.code() === 0x2d) this.pos++;
      if (!isDigit(this.code())) this.fail('in exponent of numeric literal');
      while (isDigit(this.code())) this.pos++;
    }
  }

  private scanLiteral(word: string): void {
    this.pos++;
    for (let i = 1; i < word.length; i++, this.pos++) {
      if (this.code() !== word.charCodeAt(i)) this.fail(`in literal ${word} (expecting '${word[i]}')`);
    }
  }
}

/** Go's reason why the text is not one JSON value, or undefined when it is. */
export function goJsonSyntaxError(text: string): string | undefined {
  try {
    new Scanner(text).scan();
    return undefined;
  } catch (thrown) {
    if (thrown instanceof Failure) return thrown.message;
    throw thrown;
  }
}
