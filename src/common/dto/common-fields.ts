import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { Describe, FromPath } from './dto-fields';
import { IsInt64 } from './validators';

/** The declarations most DTOs share, so that every route and method describes them alike. */

/** A path parameter read as text (the handler or the service reads its form). */
export const TextInPath = (description: string) =>
  applyDecorators(FromPath(), IsString(), Describe(description));

/** An optional text value. */
export const OptionalText = (description: string) =>
  applyDecorators(IsOptional(), IsString(), Describe(description));

/** An optional 64-bit integer. */
export const OptionalInt64 = (description: string) =>
  applyDecorators(IsOptional(), IsInt64(), Describe(description));
