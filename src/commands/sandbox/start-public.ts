/**
 * `sandbox start` beyond loopback (decisions: Shared sandbox over TLS): where it binds and whether it may
 * (TLS, or --insecure), checked before anything is opened, and what teammates are told.
 */
import { hostname, networkInterfaces } from 'node:os';
import { basename, resolve } from 'node:path';
import { UsageError } from '../../client/errors.js';
import { isLoopback } from '../../client/loopback.js';
import type { ServerTls } from '../../sandbox/tls-options.js';
import type { Io } from '../../cli/io.js';
import { fitted, type Stream } from '../../text/wrap.js';

/** `sandbox start`'s flags for where it listens and how. */
export interface PublicFlags {
  host?: string;
  public?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  insecure?: boolean;
}

/** Where the sandbox listens and how: checked, certificate and key read, before anything is opened or bound. */
export interface Binding {
  host: string;
  loopback: boolean;
  tls: ServerTls | undefined;
  /** `--tls-cert` and `--tls-key` made absolute, for a detached child and for teammates' instructions. */
  certPath: string | undefined;
  keyPath: string | undefined;
}

export async function binding(io: Io, options: PublicFlags): Promise<Binding> {
  const host = options.host ?? (options.public ? '0.0.0.0' : '127.0.0.1');
  const loopback = isLoopback(host);
  if (options.public && loopback)
    throw new UsageError(
      `--public with --host ${host}: teammates cannot reach a loopback address; leave out --host to listen on every interface, or name this machine's address`,
    );
  const { readTlsFiles, publicBindProblem } = await import('../../sandbox/tls-options.js');
  let tls: ServerTls | undefined;
  try {
    tls = readTlsFiles(options.tlsCert, options.tlsKey, io.cwd);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (tls && options.insecure)
    throw new UsageError('--insecure is for serving without TLS: leave it out with --tls-cert and --tls-key');
  const exposed = publicBindProblem(
    { host, loopback, tls: tls !== undefined, insecure: Boolean(options.insecure) },
    { tls: '--tls-cert <pem> and --tls-key <pem>', insecure: '--insecure' },
  );
  if (exposed) throw new UsageError(exposed, 'TLS_REQUIRED');
  const absolute = (path: string | undefined) => (path === undefined ? undefined : resolve(io.cwd, path));
  return { host, loopback, tls, certPath: absolute(options.tlsCert), keyPath: absolute(options.tlsKey) };
}

export const insecureWarning = (host: string) =>
  `Warning: --insecure: listening on ${host} over plain HTTP. ` +
  `API keys and money travel in clear text, ` +
  `readable and changeable by anyone on the network between you and your teammates. ` +
  `Use it only for a test server on a trusted network; --tls-cert and --tls-key serve HTTPS.\n`;

/** How teammates reach a sandbox that listens beyond loopback (nothing for a loopback one); `baseUrl` gives the port. */
export function sharing(bind: Binding, baseUrl: string): Sharing | undefined {
  return bind.loopback
    ? undefined
    : { host: bind.host, port: Number(new URL(baseUrl).port), tls: bind.tls, certPath: bind.certPath };
}

/** How teammates reach a shared sandbox: the URL and the `ledger profiles add` line they run. */
export interface Shared {
  public_url: string;
  profiles_add: string;
}

/** What `sandbox start` knows of a sandbox that listens beyond loopback. */
export interface Sharing {
  /** The address bound: a wildcard (0.0.0.0, ::) or one address. */
  host: string;
  port: number;
  tls: ServerTls | undefined;
  /** The certificate's file, as given (`--tls-cert`), made absolute. */
  certPath: string | undefined;
}

/**
 * The name teammates reach a wildcard bind by: this machine's first IPv4 address that is not
 * loopback, else its host name. A bind to one address is reached at that address.
 */
export function publicHost(host: string): string {
  if (!['0.0.0.0', '::'].includes(host)) return host.includes(':') ? `[${host}]` : host;
  for (const addresses of Object.values(networkInterfaces())) {
    const found = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (found) return found.address;
  }
  return hostname();
}

/**
 * The URL and the line teammates run to add the sandbox as a profile; over plain HTTP (`--insecure`)
 * the line says `--insecure` too, which `profiles add` needs for an http URL beyond loopback.
 * @example
 * shared({ host: '0.0.0.0', port: 4010, tls, certPath }).profiles_add
 * // 'ledger profiles add team --base-url https://192.168.1.20:4010 --api-key-stdin'
 */
export function shared(sharing: Sharing): Shared {
  const url = `${sharing.tls ? 'https' : 'http'}://${publicHost(sharing.host)}:${sharing.port}`;
  return {
    public_url: url,
    profiles_add: `ledger profiles add team --base-url ${url} --api-key-stdin${sharing.tls ? '' : ' --insecure'}`,
  };
}

/**
 * What the owner tells teammates, for stderr: how each gets a key of their own, as each developer
 * sees only its own (decisions: Tenancy, clocks and reset), the line that adds the sandbox, and how
 * to trust a self-signed certificate. Command lines stand on lines of their own, whole, to be
 * copied.
 */
export function sharingText(stream: Stream, sharing: Sharing): string {
  const { public_url: url, profiles_add: add } = shared(sharing);
  const prose = (text: string) => fitted(stream, text);
  const lines = [
    prose(`Shared with your network at ${url}. Give each teammate a key of their own: run here`),
    '  ledger sandbox developers create "Their Name" --quiet',
    prose('and send them the key it prints. They add the sandbox with this line, pasting the key or piping it in:'),
    `  ${add}`,
  ];
  const { tls, certPath } = sharing;
  if (tls?.selfSigned) {
    lines.push(
      prose(
        `The certificate is self-signed: teammates copy ${certPath} (it holds no secret) and point Node at their copy:`,
      ),
      `  export NODE_EXTRA_CA_CERTS=/path/to/${basename(certPath ?? 'cert.pem')}`,
    );
  } else if (tls) {
    lines.push(
      prose(
        "A teammate whose machine does not trust the certificate's issuer points NODE_EXTRA_CA_CERTS at the issuer's certificate.",
      ),
    );
  }
  if (tls && !tls.names(publicHost(sharing.host))) {
    lines.push(
      prose(
        `Warning: the certificate is not issued to ${publicHost(sharing.host)}, ` +
          `so teammates' connections to ${url} will be refused: make one whose subjectAltName names it.`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
