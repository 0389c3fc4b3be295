// @peculiar/x509 resolves its crypto provider through tsyringe, which needs the Reflect metadata polyfill.
import 'reflect-metadata';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import * as x509 from '@peculiar/x509';
import { OID, ownBuffer, sha256 } from './asn1';

/**
 * A demo NOM-151 provider: an RFC 3161 time-stamping authority with its own chain (demo root → demo provider).
 * Tokens it issues are ordinary RFC 3161 tokens, so OpenSSL and our offline verifier check them like any other.
 */
export interface DemoTsa {
  rootPem: string;
  providerPem: string;
  stamp(content: Uint8Array): Promise<{ tokenDer: Uint8Array; serial: string; genTime: Date }>;
}

export interface DemoTsaOptions {
  /** Clock used for genTime and for the certificates' validity window. */
  now?: () => Date;
  /** Override the provider certificate's validity (tests of expired providers). */
  providerValidity?: { notBefore: Date; notAfter: Date };
  /** Distinguishes several demo providers in one process (tests of untrusted providers). */
  name?: string;
}

/** Demo policy under the `example` arc (2.999, X.660): never a real provider's policy. */
export const DEMO_TSA_POLICY = '2.999.151.1';

const ECDSA_P256: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const DAY_MS = 86_400_000;

x509.cryptoProvider.set(globalThis.crypto);

export async function createDemoTsa(opts: DemoTsaOptions = {}): Promise<DemoTsa> {
  const now = opts.now ?? (() => new Date());
  const label = opts.name ?? 'Omni Reviewer Demo';
  const subtle = globalThis.crypto.subtle;
  const [rootKeys, providerKeys] = await Promise.all([
    subtle.generateKey(ECDSA_P256, false, ['sign', 'verify']),
    subtle.generateKey(ECDSA_P256, false, ['sign', 'verify']),
  ]);

  const issuedAt = now();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialHex(),
    name: `CN=${label} NOM-151 Root CA, O=Omni Reviewer (demo), C=MX`,
    notBefore: new Date(issuedAt.getTime() - DAY_MS),
    notAfter: new Date(issuedAt.getTime() + 10 * 365 * DAY_MS),
    signingAlgorithm: SIGNING,
    keys: rootKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const provider = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialHex(),
    subject: `CN=${label} NOM-151 Provider, O=Omni Reviewer (demo), C=MX`,
    issuer: root.subject,
    notBefore: opts.providerValidity?.notBefore ?? new Date(issuedAt.getTime() - DAY_MS),
    notAfter: opts.providerValidity?.notAfter ?? new Date(issuedAt.getTime() + 5 * 365 * DAY_MS),
    signingAlgorithm: SIGNING,
    publicKey: providerKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      // RFC 3161 §2.3: the TSA certificate has exactly one, critical, extended key usage: timeStamping.
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true),
      await x509.SubjectKeyIdentifierExtension.create(providerKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });

  const providerCert = pkijs.Certificate.fromBER(new Uint8Array(provider.rawData));
  const providerCertHash = await sha256(new Uint8Array(provider.rawData));
  const issued = new Set<string>();

  async function stamp(content: Uint8Array) {
    let serialHex = randomSerialHex();
    while (issued.has(serialHex)) serialHex = randomSerialHex();
    issued.add(serialHex);
    const genTime = now();
    const tokenDer = await issueToken({
      imprint: await sha256(content),
      serialHex,
      genTime,
      providerCert,
      providerCertHash,
      signingKey: providerKeys.privateKey,
    });
    return { tokenDer, serial: serialHex, genTime };
  }

  return { rootPem: root.toString('pem'), providerPem: provider.toString('pem'), stamp };
}

interface IssueInput {
  imprint: Uint8Array;
  serialHex: string;
  genTime: Date;
  providerCert: pkijs.Certificate;
  providerCertHash: Uint8Array;
  signingKey: CryptoKey;
}

async function issueToken(input: IssueInput): Promise<Uint8Array> {
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: DEMO_TSA_POLICY,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: input.imprint }),
    }),
    serialNumber: new asn1js.Integer({ valueHex: hexToBytes(input.serialHex) }),
    genTime: input.genTime,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    tsa: new pkijs.GeneralName({ type: 4, value: input.providerCert.subject }),
  });
  const tstInfoDer = new Uint8Array(tstInfo.toSchema().toBER());

  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: tstInfoDer }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: input.providerCert.issuer,
          serialNumber: input.providerCert.serialNumber,
        }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: OID.contentType,
              values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
            }),
            new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: input.genTime })] }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [new asn1js.OctetString({ valueHex: await sha256(tstInfoDer) })],
            }),
            // RFC 5816: binds the signer certificate to the signature so it cannot be swapped.
            new pkijs.Attribute({
              type: OID.signingCertificateV2,
              values: [signingCertificateV2(input.providerCert, input.providerCertHash)],
            }),
          ],
        }),
      }),
    ],
    certificates: [input.providerCert],
  });
  await signedData.sign(input.signingKey, 0, 'SHA-256');

  const token = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(token.toSchema().toBER());
}

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with ESSCertIDv2 using the default SHA-256. */
function signingCertificateV2(cert: pkijs.Certificate, certHash: Uint8Array): asn1js.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: certHash }), issuerSerial.toSchema()],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/** Wraps a token in a granted TimeStampResp: the usual content of a `.tsr` file (`openssl ts -verify -in`). */
export function tokenToTimeStampResp(tokenDer: Uint8Array): Uint8Array {
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: pkijs.ContentInfo.fromBER(ownBuffer(tokenDer)),
  });
  return new Uint8Array(resp.toSchema().toBER());
}

/** 16 random bytes, positive (top bit clear) and never starting with a zero byte, so the hex is its DER form. */
function randomSerialHex(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
