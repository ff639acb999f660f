import { randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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
 * Writes `body` to `destination` crash-safely: a temporary file beside it, fsync, rename over the
 * destination, fsync of the directory. Cut off half-way (the sandbox stopped, the disk filled up),
 * the destination is as it was and no temporary file is left. The temporary file has a name no one
 * can guess and is made new (O_EXCL), and the rename replaces whatever is at `destination`, a
 * symbolic link included: nothing is ever written through a link that someone else put there.
 * `mode` is 0600 (readable by its owner only) unless given; the umask applies. Returns the size written.
 * @example await saveFile('test/fixtures/base.db', response)
 */
export async function saveFile(destination: string, body: Readable | Buffer | string, mode = 0o600): Promise<number> {
  const temporary = join(dirname(destination), `.${basename(destination)}.tmp-${randomBytes(9).toString('base64url')}`);
  // Made here, new (O_EXCL): from now on the temporary file is ours to remove.
  const fd = openSync(temporary, 'wx', mode);
  try {
    await pipeline(
      Buffer.isBuffer(body) || typeof body === 'string' ? Readable.from([body]) : body,
      createWriteStream('', { fd }),
    );
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
