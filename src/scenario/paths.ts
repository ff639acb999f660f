/**
 * Paths into a step's result: `data.items[0].amount` (or `data.items.0.amount`). A segment that
 * is a whole number indexes an array; anything else names a field.
 */

export function pathSegments(path: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const part of path.split(/\.|(?=\[)/)) {
    const index = /^\[(\d+)\]$/.exec(part);
    if (index) segments.push(Number(index[1]));
    else segments.push(/^\d+$/.test(part) ? Number(part) : part);
  }
  return segments;
}

/**
 * The value at `path`, or undefined when any part of the way is missing.
 * @example valueAt({ data: { items: [{ id: 'a' }] } }, 'data.items[0].id') // 'a'
 */
export function valueAt(root: unknown, path: string): unknown {
  let value = root;
  for (const segment of pathSegments(path)) {
    if (value === null || typeof value !== 'object') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(value)) return undefined;
      value = value[segment];
    } else {
      value = Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return value;
}
