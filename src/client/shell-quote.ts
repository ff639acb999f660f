/** A word in single quotes, as a POSIX shell reads it back whole (a `'` inside as `'\''`). */
export function singleQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
