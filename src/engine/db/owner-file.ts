/**
 * Who serves a database (the owner file beside its lock), read without loading a database driver:
 * `sandbox start --detach`, `stop` and `status` are client commands, and open-storage.ts loads the
 * backend. The file is the SQLite backend's; a backend that several servers share writes none.
 */
export { lockPathFor, type LockOwner, readOwner } from './sqlite/lock-owner.js';
