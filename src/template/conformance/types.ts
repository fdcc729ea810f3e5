import type { RenderLimits } from '../types';

/** One conformance pair: a template and the exact JSON tree (or error) it must render to. */
export interface TemplateCase {
  name: string;
  template: string;
  /** The exact JSON bytes of the tree. */
  want?: string;
  /** The error class name (`HeavyPageError`) the render must throw. */
  error?: string;
  /** Request variables (added to the fixture's defaults). */
  vars?: Record<string, string>;
  source?: boolean;
  /** Start from no request variables at all (the reference's unit tests render that way). */
  bare?: boolean;
  limits?: RenderLimits;
}
