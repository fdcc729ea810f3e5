import { IsOptional, IsString } from 'class-validator';
import { Describe, FromPath } from '../common/dto/dto-fields';
import { IsInt64, NotEmptyParams } from '../common/dto/validators';

const OFFSET = 'sections to skip (below 0: 0)';
const LANG = 'language code; absent or empty: the Accept-Language header';

/** `GET sections`. */
export class SectionsForm {
  @IsOptional()
  @IsInt64()
  @Describe('sections per page (0 or absent: 25, at most 1000)')
  limit?: bigint;

  @IsOptional()
  @IsInt64()
  @Describe(OFFSET)
  offset?: bigint;

  @IsOptional()
  @IsString()
  @Describe(LANG)
  lang?: string;
}

/** `getSections {limit?, offset?, lang?}`, one object: the form's members, with a smaller page. */
export class SectionsParams extends SectionsForm {
  @IsOptional()
  @IsInt64()
  @Describe('sections per page (0 or absent: 25, at most 100)')
  declare limit?: bigint;
}

/** `GET interface/page/:name`, `interface/menu/:name`, `interface/snippet/:name`. */
export class InterfaceRowPath {
  @FromPath()
  @IsString()
  @Describe('the name of the page, menu or snippet')
  name!: string;
}

/** `getPageRow [name]`, `getMenuRow [name]`, `getSnippetRow [name]`. */
export class InterfaceRowParams {
  @IsString()
  @Describe('the name of the page, menu or snippet; empty is refused')
  @NotEmptyParams()
  name!: string;
}
