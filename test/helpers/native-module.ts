/**
 * Node's own error for a better-sqlite3 built for another Node (npm install under Node 20, then nvm
 * to Node 24), as Node words it, and the line `ledger` must print for it: one copy for every path
 * that meets it (`sandbox start`, `scenario run`).
 */
export function builtForAnotherNode(): Error {
  return Object.assign(
    new Error(
      [
        "The module '/home/ada/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'",
        'was compiled against a different Node.js version using',
        'NODE_MODULE_VERSION 115. This version of Node.js requires',
        'NODE_MODULE_VERSION 137. Please try re-compiling or re-installing',
        'the module (for instance, using `npm rebuild` or `npm install`).',
      ].join('\n'),
    ),
    { code: 'ERR_DLOPEN_FAILED' },
  );
}

export const NATIVE_MODULE_ERROR =
  `Error [NATIVE_MODULE]: better-sqlite3 was built for another version of Node (module version 115); ` +
  `this is Node ${process.version} (module version 137). ` +
  'Rebuild it for this Node with `npm rebuild better-sqlite3` in /home/ada/app, ' +
  'or run ledger with the Node it was installed with\n';
