import { CST, Lexer } from 'yaml';

/** How deep a scenario file may nest lists and maps (docs/scenarios.md). Real files need about 8. */
export const MAX_DEPTH = 64;

interface Level {
  column: number;
  kind: 'seq' | 'map';
}

/**
 * The offset of the first token that `text` (YAML or JSON) nests past MAX_DEPTH, or undefined. The
 * parser's time and stack grow with depth (a 200 KB file of nested lists took seconds of CPU before
 * its error): this reads the lexer's tokens, which cost one pass and stop there, counting brackets
 * and the block indentation of `-` items and `key:` lines. A list written at the indentation of its
 * key counts as one level with it: the count may fall short of the depth, never go past it.
 */
export function tooDeep(text: string): number | undefined {
  const block: Level[] = [];
  let flow = 0;
  let offset = 0;
  let lineStart = 0;
  let firstOnLine = true;
  // Where a map starts if a `:` follows on this line: the first token of the line, or the one after a `-` or `?`.
  let key: { column: number; offset: number } | undefined;
  let afterItem = false;
  let scalar = false;
  for (const token of new Lexer().lex(text)) {
    // Markers the lexer adds (document, end of flow, a scalar follows) are not in the text.
    if (token === CST.SCALAR) {
      scalar = true;
      continue;
    }
    if (token === CST.DOCUMENT || token === CST.FLOW_END) continue;
    const start = offset;
    offset += token.length;
    const type = scalar ? 'scalar' : CST.tokenType(token);
    scalar = false;
    const firstHere = firstOnLine;
    const newline = token.lastIndexOf('\n');
    if (newline >= 0) lineStart = start + newline + 1;
    if (type === 'newline' || type === 'space' || type === 'comment' || type === 'byte-order-mark') {
      if (newline >= 0) firstOnLine = true;
      continue;
    }
    // A block scalar's text ends with its line break.
    firstOnLine = newline === token.length - 1;
    if (type === 'doc-start' || type === 'doc-end') {
      block.length = 0;
      flow = 0;
      key = undefined;
      continue;
    }
    const column = start - lineStart;
    const item = type === 'seq-item-ind' || type === 'explicit-key-ind';
    if (flow === 0 && firstHere) {
      // A `-` at the indentation of its map's key is that key's value; anything else there is a sibling.
      const stays = (level: Level) =>
        level.column < column || (level.column === column && item && level.kind === 'map');
      while (block.length > 0 && !stays(block.at(-1)!)) block.pop();
    }
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      flow += 1;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') {
      flow = Math.max(0, flow - 1);
    } else if (flow === 0) {
      if (firstHere || afterItem) key = { column, offset: start };
      if (item) block.push({ column, kind: type === 'seq-item-ind' ? 'seq' : 'map' });
      else if (type === 'map-value-ind' && key !== undefined && key.offset !== start) {
        block.push({ column: key.column, kind: 'map' });
        // Said at the key that starts the map.
        if (block.length + flow > MAX_DEPTH) return key.offset;
        key = undefined;
      }
      afterItem = item;
    }
    if (block.length + flow > MAX_DEPTH) return start;
  }
  return undefined;
}
