import { ApiError, UnreachableError } from '../../client/errors.js';
import type { Io } from '../../cli/io.js';

/** Whether the key of a command's configuration works, and whose it is, as `profiles show` and `whoami` say it. */
export interface KeyCheck {
  /** null: not checked (no key, or a live service without --live). */
  key_works: boolean | null;
  developer: { id: string; name: string } | null;
  /** What was found, for people. */
  said: string;
  /** The refusal (exit 1) or the service out of reach (exit 3), thrown once the result is printed. */
  failure?: ApiError | UnreachableError;
}

/** What is sent to check a key: a sandbox names its developer; any service answers the seed's agent list only to a key it takes. */
const WHO = '/sandbox/keys';
const ANY = '/v1/agents?limit=1';

/**
 * Checks the key of `io`'s configuration with GET requests only. A sandbox names the developer
 * (`GET /sandbox/keys`); for a service without /sandbox (as its /openapi.json says, or a 404), a
 * read of the seed's interface that needs a key says whether it works. A live service is asked nothing without
 * --live: what would be checked is said instead. A 401 is a key refused.
 */
export async function checkKey(io: Io): Promise<KeyCheck> {
  try {
    return await asked(io);
  } catch (error) {
    if (error instanceof UnreachableError)
      return { key_works: null, developer: null, said: 'not checked: the service cannot be reached', failure: error };
    throw error;
  }
}

async function asked(io: Io): Promise<KeyCheck> {
  const config = io.config();
  if (!config.apiKey) return { key_works: null, developer: null, said: 'not checked: there is no API key' };
  if (config.live && !io.flags.live) {
    return {
      key_works: null,
      developer: null,
      said: `not checked: add --live to check the key against the live service (GET ${WHO}, else GET ${ANY}; nothing was sent)`,
    };
  }
  const client = io.client();
  // A service without the sandbox's routes is not asked for them: its /openapi.json says so, keyless.
  if ((await io.capabilities()).sandbox)
    try {
      const info = await client.request<{ developer_id: string; business_name: string }>('GET', WHO);
      const developer = { id: info.developer_id, name: info.business_name };
      return { key_works: true, developer, said: 'key works' };
    } catch (error) {
      if (refusedKey(error)) return refused(error);
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  try {
    await client.request('GET', ANY);
    return {
      key_works: true,
      developer: null,
      said: 'key works; the service does not say which developer it belongs to',
    };
  } catch (error) {
    if (refusedKey(error)) return refused(error);
    throw error;
  }
}

const refusedKey = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 401;

function refused(error: ApiError): KeyCheck {
  return { key_works: false, developer: null, said: `key refused (${error.code})`, failure: error };
}
