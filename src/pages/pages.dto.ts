import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsObject, IsOptional, IsString, ValidateBy } from 'class-validator';
import { isLosslessNumber } from 'lossless-json';
import { schema as s } from '../api-docs/schema';
import { OptionalText, TextInPath } from '../common/dto/common-fields';
import { AbsentAsNil, Describe } from '../common/dto/dto-fields';
import { IsInt64, IsJsonValue, NotNilParams, ReadsWith, refusedWhenEmpty } from '../common/dto/validators';
import { member } from '../rpc/rpc-params';

/*
 * Every form value of a render is a page variable (#name#), read by the service as the reference reads it:
 * the first of repeated names, names as sent. The values the render itself looks at (lang, and for an
 * anonymous render ecosystem, keyID and roleID) are page variables too, so the forms below declare and
 * describe them, and the service still takes them from the variables.
 */

const PAGE_NAME = 'page name, or @<ecosystem><name>';
const VARIABLES = 'every other form value becomes a page variable (#name#)';

const Lang = () => OptionalText(`language of $labels$; absent: the Accept-Language header. ${VARIABLES}`);
const AnonymousEcosystem = () => OptionalText('ecosystem of an anonymous render (and of a plain page name)');
const AnonymousKeyId = () => OptionalText('key id an anonymous render shows as #key_id#');
const AnonymousRoleId = () => OptionalText('role id an anonymous render shows as #role_id#');

/** `POST content/page/:name` and `POST content/source/:name`. */
export class PageForm {
  @TextInPath(PAGE_NAME)
  name!: string;

  @Lang()
  lang?: string;
}

/** `POST content/menu/:name`. */
export class MenuForm {
  @TextInPath('menu name, or @<ecosystem><name>')
  name!: string;

  @Lang()
  lang?: string;
}

/**
 * The values an anonymous render looks at (`POST content/hash/:name` and `POST content`): the language,
 * and the ecosystem, key and role it renders as.
 */
class AnonymousRenderForm {
  @Lang()
  lang?: string;

  @AnonymousEcosystem()
  ecosystem?: string;

  @AnonymousKeyId()
  keyID?: string;

  @AnonymousRoleId()
  roleID?: string;
}

/** `POST content/hash/:name`: its answer is the hash of what an anonymous content/page would answer. */
export class PageHashForm extends AnonymousRenderForm {
  @TextInPath(PAGE_NAME)
  name!: string;
}

/**
 * `POST content`. The template is not required to read the form: the service refuses an empty one with
 * its own text ("Empty template"), as the reference does (the old description marked it required).
 */
export class ContentForm extends AnonymousRenderForm {
  @OptionalText('the template')
  template?: string;

  @IsOptional()
  @IsBoolean()
  @Describe('true or 1: source mode (nothing run, nothing read)')
  source?: boolean;
}

/** `GET page/validators_count/:name`. */
export class PageNamePath {
  @TextInPath(PAGE_NAME)
  name!: string;
}

/**
 * `vals` as page variables: an object of strings, a number being taken as its text. Throws with the
 * reference's text on any other shape.
 */
export function templateVariables(raw: unknown): Map<string, string> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || isLosslessNumber(raw))
    throw new Error('json: cannot unmarshal into Go value of type map[string]string');
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string') values.set(name, value);
    else if (isLosslessNumber(value)) values.set(name, value.value);
    else throw new Error(`json: cannot unmarshal into Go value of type string (vals.${name})`);
  }
  return values;
}

const Vals = (description: string) =>
  applyDecorators(
    IsOptional(),
    IsJsonValue(),
    ReadsWith('isTemplateVariables', templateVariables),
    Describe(description, s.map(s.string())),
  );
const PAGE_VARIABLES = 'page variables: name → text (a number is taken as its text)';

/** `getPage name [vals]` and `getSource name [vals]`. */
export class PageParams {
  @IsString()
  @Describe(PAGE_NAME)
  name!: string;

  @Vals(PAGE_VARIABLES)
  vals?: unknown;
}

/** `getMenu name [vals]`. */
export class MenuParams {
  @IsString()
  @Describe('menu name, or @<ecosystem><name>')
  name!: string;

  @Vals(PAGE_VARIABLES)
  vals?: unknown;
}

/** `getPageHash name [ecosystem] [vals]`. */
export class PageHashParams {
  @IsString()
  @Describe(PAGE_NAME)
  name!: string;

  @IsOptional()
  @IsInt64()
  @Describe('ecosystem of a plain page name; 0 or absent: none')
  ecosystem?: bigint;

  @Vals('page variables; ecosystem, keyID and roleID for an anonymous render')
  vals?: unknown;
}

/**
 * `getContent`'s form members, names matched case-insensitively: `{template, source}`; none when the form
 * is no object (its own checks refuse it, and each check is asked about every value).
 */
export function contentForm(form: unknown): { template: unknown; source: unknown } {
  const members = form !== null && typeof form === 'object' ? (form as Record<string, unknown>) : undefined;
  return {
    template: members ? member(members, 'template') : undefined,
    source: members ? member(members, 'source') : undefined,
  };
}

/** `source`, when the form has one, is a boolean. */
const HasBooleanSource = () =>
  ValidateBy({
    name: 'hasBooleanSource',
    validator: {
      validate: (value) => {
        const { source } = contentForm(value);
        return source === undefined || source === null || typeof source === 'boolean';
      },
      defaultMessage: () => 'json: cannot unmarshal into Go struct field of type bool',
    },
  });

/**
 * The form's template is a text that is not empty; anything else is empty params, as the reference's
 * handler finds it once the form has decoded.
 */
const HasTemplate = () =>
  refusedWhenEmpty('hasTemplate', (value) => {
    const { template } = contentForm(value);
    return typeof template !== 'string' || template === '';
  });

/**
 * `getContent form [vals]`. The form's checks run nearest the property first, in the reference's order:
 * absent or null is empty params; then the form decodes (`source` a boolean, the form an object); then
 * an empty template is empty params.
 */
export class ContentParams {
  @HasTemplate()
  @IsObject()
  @HasBooleanSource()
  @Describe(
    '{template, source}: the template (not empty), and true for source mode (nothing run, nothing read)',
    s.object({ template: s.string(), source: s.boolean() }, { optional: ['source'] }),
  )
  @AbsentAsNil()
  @NotNilParams()
  form!: Record<string, unknown>;

  @Vals(PAGE_VARIABLES)
  vals?: unknown;
}

/** `getPageValidatorsCount name`. */
export class PageNameParams {
  @IsString()
  @Describe(PAGE_NAME)
  name!: string;
}
