/**
 * A command line split into words as a POSIX shell splits them, and nothing more: quotes and
 * backslashes, but no variables, globs, pipes or redirections. A scenario step is one ledger command,
 * so shell syntax that would do something else is refused with a word on what to write instead.
 */

export class WordsError extends Error {
  constructor(
    message: string,
    /** Where in the line the problem starts (0-based). */
    readonly index: number,
  ) {
    super(message);
  }
}

const SHELL_ONLY: Record<string, string> = {
  '|': 'a pipe',
  ';': 'a second command',
  '&': 'a background job or &&',
  '>': 'a redirection',
  '<': 'a redirection',
  '`': 'a command substitution',
  '(': 'a subshell',
  ')': 'a subshell',
};

/**
 * `credit ${ADA} 500000 --narration "Salary for May"` → ['credit', '${ADA}', '500000', '--narration', 'Salary for May'].
 * Throws WordsError for an unterminated quote or shell syntax.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new WordsError("this quote (') is never closed", i);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        // Inside double quotes a backslash escapes only what the shell lets it escape (and joins lines).
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`\n'.includes(line[j + 1]!)) {
          j++;
          if (line[j] !== '\n') word += line[j];
          continue;
        }
        word += line[j];
      }
      if (j >= line.length) throw new WordsError('this quote (") is never closed', i);
      i = j;
    } else if (c === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') word += line[i + 1];
      i++;
    } else if (c === '$' && line[i + 1] === '(') {
      throw new WordsError(
        '$( … ) is shell: a step runs one ledger command; capture values with save: { NAME: data.id } and use ${NAME}',
        i,
      );
    } else if (SHELL_ONLY[c]) {
      throw new WordsError(
        `${c} is ${SHELL_ONLY[c]} in a shell: a step runs one ledger command (quote it to mean the character)`,
        i,
      );
    } else {
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}
