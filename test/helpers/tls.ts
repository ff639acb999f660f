import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate and its private key, as PEM text and as the files that hold it. */
export interface Certificate {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
}

/** Names a test certificate is for: loopback by address and by name, as tests only ever connect to 127.0.0.1. */
const LOOPBACK_NAMES = 'subjectAltName=IP:127.0.0.1,DNS:localhost';
/** A P-256 key: made in milliseconds, where RSA takes a noticeable moment on a busy machine. */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function read(certPath: string, keyPath: string): Certificate {
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath };
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost (or `subjectAltName`, as openssl writes it:
 * `DNS:team.example`), valid two days, made with `openssl` in `dir` (`<name>.pem`, `<name>-key.pem`;
 * name default `cert`). Trusted by a Node process through NODE_EXTRA_CA_CERTS=certPath.
 * @example const { certPath, keyPath } = makeCertificate(dir);
 */
export function makeCertificate(dir: string, options: { name?: string; subjectAltName?: string } = {}): Certificate {
  const name = options.name ?? 'cert';
  const certPath = join(dir, `${name}.pem`);
  const keyPath = join(dir, `${name}-key.pem`);
  const names = options.subjectAltName ? `subjectAltName=${options.subjectAltName}` : LOOPBACK_NAMES;
  openssl([
    'req',
    '-x509',
    ...NEW_KEY,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    names,
    '-keyout',
    keyPath,
    '-out',
    certPath,
  ]);
  return read(certPath, keyPath);
}

/**
 * A certificate authority and a leaf it signed for 127.0.0.1 and localhost: trust `authority.certPath`
 * (NODE_EXTRA_CA_CERTS), serve with `leaf`.
 * @example const { authority, leaf } = makeAuthority(dir);
 */
export function makeAuthority(dir: string): { authority: Certificate; leaf: Certificate } {
  const authority = { certPath: join(dir, 'ca.pem'), keyPath: join(dir, 'ca-key.pem') };
  openssl([
    'req',
    '-x509',
    ...NEW_KEY,
    '-days',
    '2',
    '-subj',
    '/CN=ledger test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
    '-keyout',
    authority.keyPath,
    '-out',
    authority.certPath,
  ]);
  const leaf = { certPath: join(dir, 'leaf.pem'), keyPath: join(dir, 'leaf-key.pem') };
  const request = join(dir, 'leaf.csr');
  const extensions = join(dir, 'leaf.ext');
  openssl(['req', '-new', ...NEW_KEY, '-subj', '/CN=localhost', '-keyout', leaf.keyPath, '-out', request]);
  writeFileSync(extensions, `${LOOPBACK_NAMES}\n`);
  openssl([
    'x509',
    '-req',
    '-in',
    request,
    '-CA',
    authority.certPath,
    '-CAkey',
    authority.keyPath,
    '-set_serial',
    '1',
    '-days',
    '2',
    '-extfile',
    extensions,
    '-out',
    leaf.certPath,
  ]);
  return { authority: read(authority.certPath, authority.keyPath), leaf: read(leaf.certPath, leaf.keyPath) };
}
