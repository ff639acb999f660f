/**
 * True for a host only this machine can reach: 127.0.0.0/8, ::1 (bracketed, as a URL's hostname
 * has it) or localhost. A name that merely starts with "127." (127.0.0.1.example) is anyone's.
 * @example isLoopback(new URL('http://[::1]:4010').hostname) // true
 */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
