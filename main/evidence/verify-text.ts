/**
 * VERIFY.txt: the commands an auditor runs, on a machine without the app, to check an evidence file with stock tools
 * (a POSIX shell, `sha256sum`, `grep`, `cut`, `tr`, OpenSSL). Each step says what it proves. Every command line starts with
 * four spaces and `$ `, and each fails (non-zero exit) when what it checks does not hold, so the file's own test runs
 * them as written (test/main/evidence/evidence-file.integration.test.ts).
 */

import { plainText } from '../plain-text';

export type VerifyLanguage = 'en' | 'es';

/** One step of VERIFY.txt, as the app's verifier reports it too. */
export type StepId =
  'manifestToken' | 'manifest' | 'checkpointToken' | 'inclusion' | 'contractToken' | 'tokenSignature';

export interface VerifyPlan {
  fileName: string;
  interviewId: string;
  exportedAt: string;
  exportedBy: string;
  purpose: string;
  /** SHA-256 fingerprints of the roots in nom151-root.pem, as `openssl x509 -fingerprint -sha256` prints them. */
  rootFingerprints: string[];
  checkpoints: { seq: number; statement: string; token: string }[];
  entries: { seq: number; preimage: string; statement: string }[];
  /** Entries no statement of version 2 covers (a head-only checkpoint of an earlier version, or hash version 1). */
  unproved: { seq: number; why: 'v1-checkpoint' | 'no-checkpoint' | 'bad-checkpoint' }[];
  contracts: { documentId: string; pdf: string; token: string }[];
  contractsUnavailable?: string;
}

const words = {
  en: {
    title: 'Omni Reviewer evidence file: how to verify it without the app',
    about: (p: VerifyPlan) =>
      `Interview ${p.interviewId}, exported ${p.exportedAt} by ${oneLine(p.exportedBy)}.\nStated purpose: ${oneLine(p.purpose)}`,
    tools:
      'You need a POSIX shell (sh, grep, cut, tr), sha256sum (GNU coreutils; on macOS `shasum -a 256` prints the same)\nand OpenSSL 1.1 or newer. Every command below exits with a non-zero status when what it checks does not hold.',
    open: 'STEP 0. Open the file into a folder of its own and run every command from inside that folder.',
    openHow:
      'Any of these opens it (the parts are stored uncompressed): `unzip FILE -d DIR`, `python3 -m zipfile -e FILE DIR`,\n`bsdtar -xf FILE -C DIR` (macOS and Windows 10+ `tar`), `7z x FILE -oDIR`, or the system file manager.',
    root: 'The provider root. nom151-root.pem is the root certificate of the NOM-151 provider that issued every token in\nthis file, as the app trusted it. Do not take it from this file on trust: compare its fingerprint with the one the\nprovider publishes. These are its fingerprints:',
    rootCmd: 'prints the fingerprint to compare:',
    s1: 'STEP 1. The manifest was stamped by the provider at the time of the export.',
    s1proves:
      'Proves: MANIFEST.sha256 (the SHA-256 of every other part) existed exactly as it is at the time the token\nstates, signed by a provider under the root above. Shows that time:',
    s2: 'STEP 2. Every part is the one listed in the manifest.',
    s2proves:
      'Proves: no part (report, decisions, notes and names, audit entries, statements, tokens, contracts, this text)\nchanged after the export. Every line must say OK. The second command fails if a name in the folder holds a\ncharacter that is not plain ASCII (a line break in a name would read as two names in the listing). The third fails\nif the folder holds any file the manifest does not list (besides the manifest, its token and the .tstinfo files\nSTEP 6 writes): nothing was added.',
    s3: 'STEP 3. Each checkpoint statement was stamped when the checkpoint was taken.',
    s3proves:
      'Proves: the list of hashes in each statement (one `seq hash` line per entry of the audit trail since the\nprevious checkpoint; hashes only, no other interview’s data) existed at the token’s time, long before this export\nwhen the checkpoint is old.',
    s4: 'STEP 4. Each of this interview’s audit entries is in the trail the checkpoint covers.',
    s4proves:
      'Proves: trail/entries/<seq>.txt holds the exact bytes the trail hashed for entry <seq> (its time, environment,\ninterview, action, who, what, and the previous entry’s hash), and that hash is listed in a stamped statement, so\nthe entry was in the audit trail, unchanged, at the checkpoint’s time. Each command prints nothing and succeeds.',
    s5: 'STEP 5. The NOM-151 evidence of the interview’s signed contracts.',
    s5proves:
      'Proves: contracts/<n>-<id>.pdf (the n-th contract export.json lists) is exactly the signed contract the\nprovider’s NOM-151 evidence (constancia de conservación) is over, at the time the token states.',
    s6: 'STEP 6. Each token, read as the CMS signed data it is (RFC 3161 tokens are CMS SignedData).',
    s6proves:
      'Proves, with OpenSSL’s general CMS verifier rather than its time-stamp one: the token is signed by a certificate\nfor time-stamping under the root above, and the time-stamp info it signs names the SHA-256 of the part beside it\n(the manifest, a statement, a contract). Each command writes that signed info next to the token (.tstinfo);\n`openssl asn1parse -inform DER -in FILE.tstinfo` shows its time, folio (serial number) and policy as the provider\nsigned them. OpenSSL checks the certificates at today’s date: once the provider’s certificate has expired, add\n`-attime SECONDS` (the stamp’s time, as seconds since 1970) to check them at the time of the stamp.',
    noContracts: 'This interview has no signed contract in the service.',
    contractsUnavailable: (why: string) => `The service did not give the contracts at the export: ${why}`,
    unproved: 'Not provable offline:',
    unprovedWhy: {
      'v1-checkpoint':
        'covered by a checkpoint of an earlier version, which timestamped the trail’s head alone; its hash is in\n  trail/entries.json and the app checks it against the chain, but no statement lists it',
      'no-checkpoint': 'written after the last checkpoint on file',
      'bad-checkpoint':
        'covered by a checkpoint whose token is not the provider’s timestamp of the trail (the app names who wrote it);\n  its hash is in trail/entries.json and the app checks it against the chain',
    },
    parts:
      'The parts: report.pdf (the review report), decisions.json (the decision history: proposal, confirmation,\nreasons, who and when), service-writes.json (the notes, names and decision notes as sent, with the service’s\nanswers as read), trail/entries.json (the interview’s audit entries, readable), trail/entries/ (the exact bytes of\neach), trail/checkpoints/ (statements and their tokens), contracts/ (signed contracts and their evidence),\nexport.json (who exported, when, for what purpose).',
  },
  es: {
    title: 'Expediente de evidencia de Omni Reviewer: cómo verificarlo sin la aplicación',
    about: (p: VerifyPlan) =>
      `Entrevista ${p.interviewId}, exportada el ${p.exportedAt} por ${oneLine(p.exportedBy)}.\nPropósito declarado: ${oneLine(p.purpose)}`,
    tools:
      'Necesitas un shell POSIX (sh, grep, cut, tr), sha256sum (GNU coreutils; en macOS `shasum -a 256` imprime lo mismo)\ny OpenSSL 1.1 o posterior. Cada comando de abajo termina con un estado distinto de cero cuando lo que revisa no se cumple.',
    open: 'PASO 0. Abre el archivo en una carpeta propia y ejecuta cada comando desde dentro de esa carpeta.',
    openHow:
      'Cualquiera de estos lo abre (las partes se guardan sin comprimir): `unzip ARCHIVO -d CARPETA`,\n`python3 -m zipfile -e ARCHIVO CARPETA`, `bsdtar -xf ARCHIVO -C CARPETA` (`tar` de macOS y Windows 10+),\n`7z x ARCHIVO -oCARPETA`, o el explorador de archivos.',
    root: 'La raíz del proveedor. nom151-root.pem es el certificado raíz del proveedor NOM-151 que emitió cada sello de\neste archivo, tal como la aplicación lo confiaba. No lo aceptes por venir en este archivo: compara su huella con la\nque publica el proveedor. Sus huellas son:',
    rootCmd: 'imprime la huella a comparar:',
    s1: 'PASO 1. El proveedor selló el manifiesto al momento de la exportación.',
    s1proves:
      'Prueba: MANIFEST.sha256 (el SHA-256 de cada otra parte) existía tal cual en el momento que indica el sello,\nfirmado por un proveedor bajo la raíz de arriba. Muestra ese momento:',
    s2: 'PASO 2. Cada parte es la que lista el manifiesto.',
    s2proves:
      'Prueba: ninguna parte (reporte, decisiones, notas y nombres, entradas de bitácora, declaraciones, sellos,\ncontratos, este texto) cambió después de la exportación. Cada línea debe decir OK (o La suma coincide). El segundo\ncomando falla si un nombre de la carpeta tiene un carácter que no es ASCII simple (un salto de línea en un nombre se\nleería como dos nombres en el listado). El tercero falla si la carpeta tiene algún archivo que el manifiesto no\nlista (aparte del manifiesto, su sello y los archivos .tstinfo que escribe el PASO 6): no se agregó nada.',
    s3: 'PASO 3. Cada declaración de punto de control se selló cuando se tomó el punto de control.',
    s3proves:
      'Prueba: la lista de hashes de cada declaración (una línea `seq hash` por entrada de la bitácora desde el punto de\ncontrol anterior; solo hashes, ningún dato de otra entrevista) existía en el momento del sello, mucho antes de esta\nexportación cuando el punto de control es antiguo.',
    s4: 'PASO 4. Cada entrada de bitácora de esta entrevista está en la bitácora que cubre el punto de control.',
    s4proves:
      'Prueba: trail/entries/<seq>.txt tiene los bytes exactos que la bitácora usó para el hash de la entrada <seq>\n(su hora, ambiente, entrevista, acción, quién, qué, y el hash de la entrada anterior), y ese hash aparece en una\ndeclaración sellada: la entrada estaba en la bitácora, sin cambios, en el momento del punto de control. Cada\ncomando no imprime nada y termina bien.',
    s5: 'PASO 5. La constancia NOM-151 de los contratos firmados de la entrevista.',
    s5proves:
      'Prueba: contracts/<n>-<id>.pdf (el n-ésimo contrato que lista export.json) es exactamente el contrato firmado\nsobre el que está la constancia de conservación NOM-151 del proveedor, en el momento que indica el sello.',
    s6: 'PASO 6. Cada sello, leído como los datos firmados CMS que es (un sello RFC 3161 es un SignedData CMS).',
    s6proves:
      'Prueba, con el verificador CMS general de OpenSSL en vez del de sellos de tiempo: el sello lo firmó un certificado\nde sellado de tiempo bajo la raíz de arriba, y la información de sello que firma nombra el SHA-256 de la parte de\nal lado (el manifiesto, una declaración, un contrato). Cada comando escribe esa información firmada junto al sello\n(.tstinfo); `openssl asn1parse -inform DER -in ARCHIVO.tstinfo` muestra su hora, folio (número de serie) y política\ntal como los firmó el proveedor. OpenSSL revisa los certificados a la fecha de hoy: cuando el certificado del\nproveedor haya vencido, añade `-attime SEGUNDOS` (la hora del sello, en segundos desde 1970) para revisarlos a la\nhora del sello.',
    noContracts: 'Esta entrevista no tiene contratos firmados en el servicio.',
    contractsUnavailable: (why: string) => `El servicio no entregó los contratos al exportar: ${why}`,
    unproved: 'No demostrable sin la aplicación:',
    unprovedWhy: {
      'v1-checkpoint':
        'cubierta por un punto de control de una versión anterior, que selló solo la cabeza de la bitácora; su hash\n  está en trail/entries.json y la aplicación lo revisa contra la cadena, pero ninguna declaración lo lista',
      'no-checkpoint': 'escrita después del último punto de control',
      'bad-checkpoint':
        'cubierta por un punto de control cuyo sello no es el del proveedor para la bitácora (la aplicación dice quién\n  lo escribió); su hash está en trail/entries.json y la aplicación lo revisa contra la cadena',
    },
    parts:
      'Las partes: report.pdf (el reporte de revisión), decisions.json (el historial de decisiones: propuesta,\nconfirmación, motivos, quién y cuándo), service-writes.json (las notas, nombres y notas de decisión como se\nenviaron, con las respuestas del servicio como se leyeron), trail/entries.json (las entradas de bitácora de la\nentrevista, legibles), trail/entries/ (los bytes exactos de cada una), trail/checkpoints/ (declaraciones y sus\nsellos), contracts/ (contratos firmados y su constancia), export.json (quién exportó, cuándo y para qué).',
  },
};

const cmd = (line: string) => `    $ ${line}`;
const tokenVerify = (data: string, token: string) =>
  `openssl ts -verify -data ${data} -in ${token} -token_in -CAfile nom151-root.pem`;

/**
 * STEP 2's second command: every file in the folder (a link included) is one the manifest lists, the manifest and its
 * token, or the `.tstinfo` STEP 6 writes beside a listed token: `sha256sum -c` checks only what the manifest lists, so a
 * part added beside them went unseen. (Any other `.tstinfo`, or a link, had passed a first version of this.)
 */
export const LISTING_COMMAND = String.raw`find . ! -type d | sed 's|^\./||' | awk 'BEGIN { ok["MANIFEST.sha256"] = ok["MANIFEST.tst"] = ok["MANIFEST.tstinfo"] = 1 } FNR == NR { p = substr($0, 67); ok[p] = 1; if (p ~ /\.tst$/) ok[substr(p, 1, length(p) - 4) ".tstinfo"] = 1; next } !($0 in ok) { print "not in the manifest: " $0; bad = 1 } END { exit bad }' MANIFEST.sha256 -`;

/**
 * STEP 2's second command, before the listing: no name in the folder holds a byte that is not printable ASCII (the
 * app's names are ASCII, `safe`). The listing reads one name a line, and `python3 -m zipfile -e` writes a line break
 * into a name as it is: `VERIFY.txt<LF>report.pdf` read as two listed parts. `find` alone (the C locale makes every
 * byte a character), exiting non-zero through `false` when it finds one, after printing it escaped.
 */
export const NAMES_COMMAND = String.raw`LC_ALL=C find . -name '*[![:print:]]*' -exec ls -db {} + -exec false {} +`;

/** Words from people (a purpose, a name) on one line of VERIFY.txt: never a line of their own, among the commands. */
const oneLine = (text: string) => plainText(text.replace(/\s+/g, ' '), 500);

/**
 * The command of STEP 6 for one token: OpenSSL's CMS verifier checks the provider's signature, its certificate up to
 * the root (that root only: not the machine's own store, where any public authority's root is) and its time-stamping
 * purpose, and writes the signed TSTInfo; its message imprint must be the part's
 * SHA-256 (`asn1parse` prints it as `[HEX DUMP]:` and 64 upper-case hex digits). `&&`, not a pipe: CMS writes the
 * content before it compares the content's digest, so a pipe would read an altered TSTInfo that then failed.
 */
export const cmsCommand = (data: string, token: string) => {
  const info = token.replace(/\.tst$/, '.tstinfo');
  return (
    `openssl cms -verify -inform DER -in ${token} -binary -CAfile nom151-root.pem -no-CApath -no-CAstore -purpose timestampsign -out ${info}` +
    ` && openssl asn1parse -inform DER -in ${info} | grep -q "\\[HEX DUMP\\]:$(sha256sum < ${data} | cut -c1-64 | tr a-f A-F)\\$"`
  );
};

/** The command of STEP 4 for one entry: its bytes' SHA-256, found as a whole `seq hash` line of the statement. */
export const inclusionCommand = (seq: number, preimage: string, statement: string) =>
  `grep -Fxq "${seq} $(sha256sum < ${preimage} | cut -c1-64)" ${statement}`;

export function verifyText(plan: VerifyPlan, language: VerifyLanguage): string {
  const w = words[language];
  const out: string[] = [w.title, '='.repeat(w.title.length), '', w.about(plan), '', w.tools, '', w.parts, ''];
  out.push(w.open, w.openHow, '');
  out.push(w.root, ...plan.rootFingerprints.map((f) => `    ${f}`), w.rootCmd);
  out.push(cmd('openssl x509 -in nom151-root.pem -noout -fingerprint -sha256'), '');
  out.push(w.s1, w.s1proves, cmd('openssl ts -reply -in MANIFEST.tst -token_in -text | grep "Time stamp"'));
  out.push(cmd(tokenVerify('MANIFEST.sha256', 'MANIFEST.tst')), '');
  out.push(w.s2, w.s2proves, cmd('sha256sum -c MANIFEST.sha256'), cmd(NAMES_COMMAND), cmd(LISTING_COMMAND), '');
  out.push(w.s3, w.s3proves);
  for (const c of plan.checkpoints) out.push(cmd(tokenVerify(c.statement, c.token)));
  out.push('');
  out.push(w.s4, w.s4proves);
  for (const e of plan.entries) out.push(cmd(inclusionCommand(e.seq, e.preimage, e.statement)));
  if (plan.unproved.length > 0) {
    out.push('', w.unproved);
    for (const u of plan.unproved) out.push(`  #${u.seq}: ${w.unprovedWhy[u.why]}`);
  }
  out.push('');
  out.push(w.s5, w.s5proves);
  if (plan.contractsUnavailable) out.push(w.contractsUnavailable(plan.contractsUnavailable));
  else if (plan.contracts.length === 0) out.push(w.noContracts);
  for (const c of plan.contracts) out.push(cmd(tokenVerify(c.pdf, c.token)));
  out.push('');
  out.push(w.s6, w.s6proves, cmd(cmsCommand('MANIFEST.sha256', 'MANIFEST.tst')));
  for (const c of plan.checkpoints) out.push(cmd(cmsCommand(c.statement, c.token)));
  for (const c of plan.contracts) out.push(cmd(cmsCommand(c.pdf, c.token)));
  out.push('');
  return out.join('\n');
}
