/**
 * TLS for a sandbox that others reach (decisions: Shared sandbox over TLS): the certificate and key
 * checked before anything is opened or bound, and the rule that a bind beyond loopback needs them.
 * Each check throws RangeError with a message naming what was given.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A certificate and its private key, PEM. */
export interface TlsPem {
  cert: string | Buffer;
  key: string | Buffer;
}

/** What the server serves with, and the certificate's SHA-256 fingerprint that a local client pins. */
export interface ServerTls {
  cert: string;
  key: string;
  /** As Node writes it (`AB:CD:…`, 32 bytes): `X509Certificate.fingerprint256`. */
  fingerprint: string;
  /** Signed by its own key: nobody trusts it until told to (NODE_EXTRA_CA_CERTS). */
  selfSigned: boolean;
  /** Whether the certificate names this host (an IP address or a DNS name). */
  names(host: string): boolean;
}

/** How a refusal names the certificate and the key: flags for the command line, fields for startSandbox. */
export interface TlsLabels {
  cert: string;
  key: string;
}

/**
 * Reads `--tls-cert` and `--tls-key` (paths from `cwd`), both or neither, and checks them (checkTls).
 * @example const tls = readTlsFiles('cert.pem', 'key.pem', process.cwd()); // { cert, key, fingerprint, … }
 */
export function readTlsFiles(
  certPath: string | undefined,
  keyPath: string | undefined,
  cwd: string,
): ServerTls | undefined {
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    throw new RangeError(
      `${certPath === undefined ? '--tls-key' : '--tls-cert'} needs ` +
        `${certPath === undefined ? '--tls-cert' : '--tls-key'}: a certificate and its private key go together`,
    );
  }
  return checkTls(
    { cert: readPem(certPath, cwd, '--tls-cert'), key: readPem(keyPath, cwd, '--tls-key') },
    { cert: `--tls-cert ${certPath}`, key: `--tls-key ${keyPath}` },
  );
}

function readPem(path: string, cwd: string, flag: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new RangeError(
      `${flag} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/**
 * A certificate and key that the server can serve: each parses, and the key is the certificate's.
 * @example checkTls({ cert, key }, { cert: 'tls.cert', key: 'tls.key' }).fingerprint // 'AB:CD:…'
 */
export function checkTls(pem: TlsPem, labels: TlsLabels): ServerTls {
  let certificate: X509Certificate;
  let key: KeyObject;
  try {
    certificate = new X509Certificate(pem.cert);
  } catch {
    throw new RangeError(`${labels.cert} is not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  try {
    key = createPrivateKey(pem.key);
  } catch {
    throw new RangeError(
      `${labels.key} is not an unencrypted PEM private key (one with a passphrase is not supported)`,
    );
  }
  if (!certificate.checkPrivateKey(key))
    throw new RangeError(`${labels.key} is not the private key of the certificate ${labels.cert}`);
  return {
    cert: pem.cert.toString(),
    key: pem.key.toString(),
    fingerprint: certificate.fingerprint256,
    selfSigned: certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey),
    names: (host) => {
      const bare = host.replace(/^\[|\]$/g, '');
      return /^[\d.]+$|:/.test(bare)
        ? certificate.checkIP(bare) !== undefined
        : certificate.checkHost(bare) !== undefined;
    },
  };
}

/**
 * Why the sandbox may not listen on `host`, if it may not: beyond loopback, keys and money cross the
 * network, so only over TLS, or in clear text when the caller says so (`insecure`) for a test server.
 * `loopback` is client/loopback.ts's verdict on `host` (the server does not import client code).
 */
export function publicBindProblem(
  bind: { host: string; loopback: boolean; tls: boolean; insecure: boolean },
  how: { tls: string; insecure: string },
): string | undefined {
  if (bind.loopback || bind.tls || bind.insecure) return undefined;
  return (
    `listening on ${bind.host} reaches beyond this machine, where API keys and money would travel in clear text: ` +
    `give ${how.tls} to serve HTTPS, or ${how.insecure} for a test server on a trusted network`
  );
}
