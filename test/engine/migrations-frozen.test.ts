import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EVENT_TYPE_CODES_AT_0020 } from '../../src/engine/db/migrations/0020-webhook-rows-by-number.js';
import { EVENT_TYPE_CODES } from '../../src/engine/events/stored.js';

const FOLDER = 'src/engine/db/migrations';

it('no migration imports live engine code: only Kysely, its own folder and the dialect check', () => {
  const outside = readdirSync(FOLDER)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(join(FOLDER, file), 'utf8').matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)]
        .map((match) => match[1]!)
        .filter((from) => from !== 'kysely' && !from.startsWith('./') && from !== '../dialect.js')
        .map((from) => `${file} imports ${from}`),
    );
  expect(outside).toEqual([]);
});

it("the engine's event type codes still begin with those migration 0020 numbered rows by", () => {
  expect(EVENT_TYPE_CODES.slice(0, EVENT_TYPE_CODES_AT_0020.length)).toEqual([...EVENT_TYPE_CODES_AT_0020]);
});
