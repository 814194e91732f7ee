import type { Rule } from '../../core/dust';

/** A rule in the paper's notation, α → β, or the parameter substitution it is. */
export function ruleText(r: Rule): { alpha: string; beta: string } {
  if (r.kind === 'substring') return { alpha: r.alpha.join(''), beta: r.beta.join('') };
  if (r.kind === 'param-drop') return { alpha: `${r.param}=…`, beta: '(dropped)' };
  return { alpha: `${r.param}=…`, beta: `${r.param}=${r.value}` };
}
