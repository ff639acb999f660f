import { type Document, isAlias, isCollection, isPair, isScalar } from 'yaml';
import { MAX_DEPTH } from './depth.js';

/** How many aliases (`*name`) one YAML document may have, and how many values they may stand for in all (docs/scenarios.md). */
export const MAX_ALIASES = 1_000;
export const MAX_ALIASED_VALUES = 100_000;

interface Measure {
  /** Values once every alias inside is replaced by what it names (capped just past the limit). */
  values: number;
  depth: number;
}

class AliasProblem {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/**
 * The first alias of `document` that cannot stand: one with no anchor before it, one inside the value
 * it names, or one past the limits, where aliases of aliases make a few lines stand for millions of
 * values (a "billion laughs") or nest past MAX_DEPTH. One pass in document order, before the document
 * becomes values: the `yaml` package would find these only later, with no place in the file, and
 * looks every alias up among all the anchors before it.
 */
export function aliasProblem(document: Document): { offset: number; message: string } | undefined {
  const anchors = new Map<string, Measure | 'open'>();
  let aliases = 0;
  let aliased = 0;
  const measure = (node: unknown, level: number): Measure => {
    if (isAlias(node)) {
      const offset = node.range?.[0] ?? 0;
      const name = node.source;
      const target = anchors.get(name);
      if (target === undefined)
        throw new AliasProblem(offset, `*${name}: no anchor &${name} before it in this document`);
      if (target === 'open')
        throw new AliasProblem(
          offset,
          `*${name} is inside &${name}, the value it names: a value cannot contain itself`,
        );
      aliases += 1;
      aliased += target.values;
      if (aliases > MAX_ALIASES)
        throw new AliasProblem(offset, `more than ${MAX_ALIASES.toLocaleString('en')} aliases in one document`);
      if (aliased > MAX_ALIASED_VALUES)
        throw new AliasProblem(
          offset,
          `the aliases stand for more than ${MAX_ALIASED_VALUES.toLocaleString('en')} values in all (aliases of aliases multiply)`,
        );
      if (level + target.depth > MAX_DEPTH)
        throw new AliasProblem(
          offset,
          `nested deeper than ${MAX_DEPTH} levels once *${name} is replaced by what it names`,
        );
      return target;
    }
    const anchor = isScalar(node) || isCollection(node) ? node.anchor : undefined;
    if (anchor) anchors.set(anchor, 'open');
    const measured: Measure = { values: 1, depth: isCollection(node) ? 1 : 0 };
    if (isCollection(node)) {
      for (const item of node.items) {
        for (const part of isPair(item) ? [item.key, item.value] : [item]) {
          if (part === null || part === undefined) continue;
          const inner = measure(part, level + 1);
          measured.values = Math.min(measured.values + inner.values, MAX_ALIASED_VALUES + 1);
          measured.depth = Math.max(measured.depth, inner.depth + 1);
        }
      }
    }
    if (anchor) anchors.set(anchor, measured);
    return measured;
  };
  try {
    measure(document.contents, 0);
    return undefined;
  } catch (error) {
    if (error instanceof AliasProblem) return { offset: error.offset, message: error.message };
    throw error;
  }
}
