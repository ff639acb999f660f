/**
 * The flags that choose where a command's requests go may come before the command's name, as gh's
 * and Stripe's do: `ledger --profile staging suspense list` is `ledger suspense list --profile
 * staging`. They are moved after the command's words (its name and arguments, up to its first
 * flag), where every client command declares them; anything else before the name is left for the
 * program to refuse with the line as it should read.
 * @example hoistGlobals(['--live', 'transfer', 'W', '100']) // ['transfer', 'W', '100', '--live']
 */
export function hoistGlobals(args: string[]): string[] {
  const moved: string[] = [];
  let at = 0;
  while (at < args.length) {
    const word = args[at]!;
    if (word === '--live' || word === '--insecure' || word.startsWith('--profile=')) {
      moved.push(word);
      at += 1;
    } else if (word === '--profile' && at + 1 < args.length) {
      moved.push(word, args[at + 1]!);
      at += 2;
    } else break;
  }
  if (moved.length === 0) return args;
  const rest = args.slice(at);
  let end = 0;
  while (end < rest.length && !rest[end]!.startsWith('-')) end += 1;
  return [...rest.slice(0, end), ...moved, ...rest.slice(end)];
}
