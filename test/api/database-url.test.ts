import { describe, expect, it } from 'vitest';
import { redactDatabase } from '../../src/api/database-url.js';

describe('redactDatabase', () => {
  it.each([
    ['postgres://ledger:s3cret@db.example.com:5432/ledger', 'postgres://ledger:***@db.example.com:5432/ledger'],
    [
      'postgresql://ledger:p%40ss@127.0.0.1/ledger?sslmode=require',
      'postgresql://ledger:***@127.0.0.1/ledger?sslmode=require',
    ],
    ['POSTGRES://ledger:s3cret@h/db', 'postgres://ledger:***@h/db'],
    ['postgres://h/db?password=s3cret&sslmode=require', 'postgres://h/db?password=***&sslmode=require'],
    ['postgres://u:one@h/db?PassWord=two', 'postgres://u:***@h/db?PassWord=***'],
    ['postgres://ledger@h/db', 'postgres://ledger@h/db'],
  ])('hides the password of %s', (url, shown) => {
    expect(redactDatabase(url)).toBe(shown);
  });

  it('hides all of a user part that is not a URL WHATWG reads, and its parameters', () => {
    const shown = redactDatabase('postgres://u:s3#cr/et@h:5432/db?password=x');
    expect(shown).toBe('postgres://***@h:5432/db');
  });

  it('shows a file path or :memory: as it is', () => {
    expect(redactDatabase('/home/ada/.ledger/sandbox.db')).toBe('/home/ada/.ledger/sandbox.db');
    expect(redactDatabase(':memory:')).toBe(':memory:');
  });
});

describe('redactDatabase, where WHATWG would read a password as a port', () => {
  it('hides it all the same', () => {
    expect(redactDatabase('postgres://user:12345/x@h/db')).toBe('postgres://***@h/db');
    expect(redactDatabase('postgres://:pw@h/db')).toBe('postgres://***@h/db');
  });
});
