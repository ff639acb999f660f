import { describe, expect, it } from 'vitest';
import { readTime } from '../../src/cli/filters.js';

// --since and --until as the command line reads them (days in Lagos, UTC+1), against a sandbox's now on a manual clock
// (one that stands far from real time, so nothing can come out right by reading the local clock).
const now = new Date('2026-03-11T12:00:00.000Z');
const at = (text: string, edge: 'start' | 'end') => {
  const time = readTime(text, edge === 'start' ? '--since' : '--until', edge);
  return { relative: time.relative, iso: time.at(now).toISOString() };
};

describe('readTime', () => {
  it.each([
    ['2026-01-02', 'start', false, '2026-01-01T23:00:00.000Z'],
    ['2026-01-02', 'end', false, '2026-01-02T22:59:59.999Z'],
    ['2024-02-29', 'end', false, '2024-02-29T22:59:59.999Z'],
    ['2026-01-02T09:30', 'start', false, '2026-01-02T08:30:00.000Z'],
    ['2026-01-02T09:30:00+01:00', 'end', false, '2026-01-02T08:30:00.000Z'],
    ['today', 'start', true, '2026-03-10T23:00:00.000Z'],
    ['TODAY', 'end', true, '2026-03-11T22:59:59.999Z'],
    ['yesterday', 'start', true, '2026-03-09T23:00:00.000Z'],
    ['yesterday', 'end', true, '2026-03-10T22:59:59.999Z'],
    ['24h', 'start', true, '2026-03-10T12:00:00.000Z'],
    ['7d', 'end', true, '2026-03-04T12:00:00.000Z'],
    ['90m', 'start', true, '2026-03-11T10:30:00.000Z'],
  ] as const)('%s as the %s of a range', (text, edge, relative, iso) => {
    expect(at(text, edge)).toEqual({ relative, iso });
  });

  it('counts today from midnight in Lagos, which is 23:00 UTC the day before', () => {
    const lateEvening = new Date('2026-03-11T23:30:00.000Z');
    expect(readTime('today', '--since', 'start').at(lateEvening).toISOString()).toBe('2026-03-11T23:00:00.000Z');
    expect(readTime('yesterday', '--until', 'end').at(lateEvening).toISOString()).toBe('2026-03-11T22:59:59.999Z');
  });

  it.each([
    '2026-02-29',
    '2026-13-01',
    '2026-01-02T24:00:00Z',
    '2026-01-02T09:30:00+25:00',
    'last week',
    '24',
    '-1d',
    '',
  ])('refuses %j (exit 2) naming the flag', (text) => {
    expect(() => readTime(text, '--since', 'start')).toThrow(`--since "${text}" must be an ISO date or time`);
  });
});
