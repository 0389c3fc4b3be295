import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { TrustedRootView } from '../../common/ipc/nom151';
import { sha256, toHex } from './asn1';

/**
 * Reads a provider root certificate as the user pastes or loads it (PEM, or base64 of the DER) and returns it as
 * PEM. `null` when it is not a CA certificate: a leaf cannot anchor a chain, and trusting one would be a mistake.
 */
export function normalizeRootCertificate(input: string): string | null {
  const body = input.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
  if (cert.getExtension(x509.BasicConstraintsExtension)?.ca !== true) return null;
  return cert.toString('pem');
}

export async function describeRoot(pem: string): Promise<TrustedRootView | null> {
  try {
    const cert = new x509.X509Certificate(pem);
    return {
      subject: cert.subject,
      notAfter: cert.notAfter.toISOString(),
      fingerprint: toHex(await sha256(new Uint8Array(cert.rawData))),
    };
  } catch {
    return null;
  }
}
