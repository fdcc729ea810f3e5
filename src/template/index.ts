import { treeToJson } from './json';
import { DEFAULT_LIMITS, Renderer } from './renderer';
import { HeavyPageError, type RenderOptions, type TemplateNode } from './types';

export { FUNCTIONS, TAILS } from './catalog';
export { treeToJson } from './json';
export { pickLanguage } from './language';
export { DEFAULT_LIMITS } from './renderer';
export * from './types';

/**
 * Renders a template into the reference's tree: an array of nodes (empty when nothing is produced). Top-level
 * texts get a last `#var#` pass. Throws {@link HeavyPageError} past the time, node or size budget.
 */
export async function renderTemplate(template: string, options: RenderOptions): Promise<TemplateNode[]> {
  const vars = { ...options.vars };
  if (options.source) vars._full = '1';
  const renderer = new Renderer(options.port, vars, options.limits);
  const root = renderer.newNode('');
  await renderer.process(template, root);
  const nodes = root.children ?? [];
  for (const node of nodes) if (node.tag === 'text' && node.text) node.text = renderer.macro(node.text);
  return nodes;
}

/** {@link renderTemplate} written as Go's encoding/json would (the bytes page hashes are taken over). */
export async function renderTemplateJson(template: string, options: RenderOptions): Promise<string> {
  const json = treeToJson(await renderTemplate(template, options));
  const maxSize = options.limits?.maxSize ?? DEFAULT_LIMITS.maxSize;
  if (json.length > maxSize) throw new HeavyPageError('size');
  return json;
}
