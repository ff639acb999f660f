/** Whether `location` names a PostgreSQL database (a postgres:// or postgresql:// URL) rather than a SQLite file or ':memory:'. */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);
