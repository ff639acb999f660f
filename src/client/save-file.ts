import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

let temporaries = 0;

/** Flushes a file, or a directory's entries, to the disk. */
function sync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `body` to `destination` crash-safely, readable by its owner only: a temporary file beside
 * it (mode 0600), fsync, rename over the destination, fsync of the directory. Cut off half-way (the
 * sandbox stopped, the disk filled up), the destination is as it was and no temporary file is left.
 * Returns the size written.
 * @example await saveFile('test/fixtures/base.db', response)
 */
export async function saveFile(destination: string, body: Readable | Buffer): Promise<number> {
  const temporary = join(dirname(destination), `.${basename(destination)}.tmp-${process.pid}-${++temporaries}`);
  try {
    await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temporary, { mode: 0o600, flags: 'wx' }));
    sync(temporary);
    const size = statSync(temporary).size;
    renameSync(temporary, destination);
    sync(dirname(destination));
    return size;
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
