import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_DETAIL_KEYS,
  describeAuditDetail,
  describeFinding,
  type AuditDetailFormat,
} from '../../common/audit-words';
import { openHighFindings } from '../../main/review/decision';
import { formatBytes, formatDuration } from '../../renderer/i18n/index';

const mainDir = new URL('../../main/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The keys of an object literal, following spreads of `cond ? { … } : {}`; anything else cannot be read statically. */
function literalKeys(node: ts.Expression, where: string): string[] {
  if (ts.isParenthesizedExpression(node)) return literalKeys(node.expression, where);
  if (ts.isConditionalExpression(node))
    return [...literalKeys(node.whenTrue, where), ...literalKeys(node.whenFalse, where)];
  if (!ts.isObjectLiteralExpression(node))
    throw new Error(`${where}: an audit detail that is not an object literal; list its keys by hand`);
  return node.properties.flatMap((p) => {
    if (ts.isSpreadAssignment(p)) return literalKeys(p.expression, where);
    if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name))
      return [p.name.text];
    throw new Error(`${where}: a detail property whose name is not a plain identifier`);
  });
}

/** Every key main's `….audit.append({ …, detail: { … } })` calls write, read from the source. */
function detailKeysWrittenByMain(): { keys: Set<string>; calls: number } {
  const keys = new Set<string>();
  let calls = 0;
  for (const file of sourceFiles(mainDir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'append' &&
        ts.isPropertyAccessExpression(node.expression.expression) &&
        node.expression.expression.name.text === 'audit'
      ) {
        const where = `${file.slice(mainDir.length)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        const [arg] = node.arguments;
        const detail =
          arg && ts.isObjectLiteralExpression(arg)
            ? arg.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'detail')
            : undefined;
        if (!detail || !ts.isPropertyAssignment(detail))
          throw new Error(`${where}: audit.append without a literal detail`);
        for (const key of literalKeys(detail.initializer, where)) keys.add(key);
        calls += 1;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { keys, calls };
}

/** The arguments of each `json_build_object(…)` call in an SQL text, split at their own commas (not nested ones). */
function jsonBuildObjectArguments(sqlText: string): string[][] {
  const calls: string[][] = [];
  for (const { index } of sqlText.matchAll(/json_build_object\(/g)) {
    const args: string[] = [];
    let depth = 0;
    let current = '';
    for (const c of sqlText.slice(index! + 'json_build_object('.length)) {
      if (depth === 0 && (c === ',' || c === ')')) {
        args.push(current.trim());
        current = '';
        if (c === ')') break;
        continue;
      }
      depth += c === '(' ? 1 : c === ')' ? -1 : 0;
      current += c;
    }
    calls.push(args);
  }
  return calls;
}

/** Every key the database's own entries write: the objects built in each migration function that calls `omni_trail`. */
function detailKeysWrittenByTheDatabase(): Set<string> {
  const keys = new Set<string>();
  for (const file of sourceFiles(join(mainDir, 'record/migrations'))) {
    const functions = readFileSync(file, 'utf8').split(/create (?:or replace )?function /);
    for (const fn of functions.filter((f) => f.includes('perform omni_trail(')))
      for (const args of jsonBuildObjectArguments(fn))
        args.forEach((arg, i) => {
          if (i % 2 === 0) keys.add(arg.replace(/^'|'$/g, ''));
        });
  }
  return keys;
}

const spanish: AuditDetailFormat = {
  language: 'es',
  number: (n) => new Intl.NumberFormat('es-MX').format(n),
  bytes: (n) => formatBytes(n, 'es-MX'),
  duration: formatDuration,
};

describe('audit entry details in words', () => {
  it('labels exactly the detail keys main and the database write (a new key, or a label nothing writes, fails here)', () => {
    const { keys, calls } = detailKeysWrittenByMain();
    expect(calls).toBeGreaterThan(20);
    const byTheDatabase = detailKeysWrittenByTheDatabase();
    expect([...byTheDatabase].sort()).toEqual(
      [
        'acknowledgedFindings',
        'addedAt',
        'addedBy',
        'by',
        'decidedBy',
        'decision',
        'decisionStatus',
        'reason',
        'reasonCode',
        'fourEyes',
        'leaseMinutes',
        'of',
        'reasonCodes',
        'sealedSha256',
        'targetHours',
        'text',
        'to',
      ].sort(),
    );
    expect([...new Set([...keys, ...byTheDatabase])].sort()).toEqual([...AUDIT_DETAIL_KEYS].sort());
  });

  it('shows every key and the codes it knows in Spanish', () => {
    expect(
      describeAuditDetail({ what: 'contract', documentId: 'doc-7', bytes: 1536, name: 'contrato.pdf' }, spanish),
    ).toBe('Contenido: Contrato · ID del documento: doc-7 · Tamaño: 1.5 KB · Nombre del archivo: contrato.pdf');
    expect(
      describeAuditDetail({ kind: 'videoImport', type: 'frontId', bytes: 2048, recordingId: 'rec-1' }, spanish),
    ).toBe(
      'Tipo: Importación de video · Tipo de grabación: Frente de la identificación · Tamaño: 2 KB · ID de la grabación: rec-1',
    );
    expect(
      describeAuditDetail({ decision: 'requestNewCapture', reason: 'Foto borrosa', acknowledgedFindings: [] }, spanish),
    ).toBe(
      'Decisión: Solicitar nueva captura · Motivo: Foto borrosa · Hallazgos de severidad alta reconocidos: ninguno',
    );
    expect(
      describeAuditDetail(
        { kind: 'faceAuthentication', mode: 'oneToN', overallStatus: 'FAIL', error: 'FACE_NOT_FOUND' },
        spanish,
      ),
    ).toBe('Tipo: Autenticación facial · Modo: Uno a N · Resultado: Rechazada · Error: FACE_NOT_FOUND');
    expect(
      describeAuditDetail(
        { evidenceName: 'a.tsr', documentName: null, valid: false, failures: ['IMPRINT_MISMATCH', 'UNTRUSTED_ROOT'] },
        spanish,
      ),
    ).toBe(
      'Archivo de la constancia: a.tsr · Archivo del documento: — · Válido: No · Códigos de falla: IMPRINT_MISMATCH, UNTRUSTED_ROOT',
    );
    expect(describeAuditDetail({ nom151: 'sealedPdf', positionSeconds: 75.4, rows: 1200 }, spanish)).toBe(
      'Archivo NOM-151: PDF sellado · Posición: 1 min 15 s · Filas: 1,200',
    );
  });

  it('keeps a key or a code it does not know as written, so nothing is dropped', () => {
    expect(describeAuditDetail({ kind: 'somethingNew', laterKey: { a: 1 } }, spanish)).toBe(
      'Tipo: somethingNew · laterKey: {"a":1}',
    );
    // A code that happens to name an Object.prototype member is still just a code.
    expect(describeAuditDetail({ kind: 'constructor', what: 'toString' }, spanish)).toBe(
      'Tipo: constructor · Contenido: toString',
    );
  });

  it('has no raw key left in either language for any key main writes', () => {
    for (const locale of ['en', 'es'] as const) {
      const format: AuditDetailFormat = { ...spanish, language: locale };
      for (const key of AUDIT_DETAIL_KEYS)
        expect(describeAuditDetail({ [key]: 'x' }, format)).not.toMatch(new RegExp(`^${key}:`));
    }
  });

  it('words the acknowledged findings and the four-eyes rule: no high/HIGH or camelCase check name left', () => {
    // The findings as main words them, from a reading with a high check that ran, one that did not, and HIGH fraud.
    const findings = openHighFindings({
      checkResults: [
        { name: 'faceTamperCheck', severity: 'high', version: 'v1', result: 0.91 },
        { name: 'newModelCheck', severity: 'high', version: 'v1', result: null },
      ],
      fraudRisk: {
        name: 'checkFraudRisk',
        severity: 'HIGH',
        version: 'v3',
        result: 0.93,
        topNFraudFeatures: [],
        topNLegitFeatures: [],
        topNFraudCodes: [],
        topNLegitCodes: [],
      },
    } as unknown as Parameters<typeof openHighFindings>[0]);
    expect(findings.map((f) => describeFinding(f, 'es'))).toEqual([
      'Alteración del rostro (severidad alta, 0.91)',
      'newModelCheck (severidad alta, no se ejecutó)',
      'Riesgo de fraude (severidad alta, 0.93)',
    ]);
    expect(describeFinding(findings[2]!, 'en')).toBe('Fraud risk (high severity, 0.93)');
    expect(describeAuditDetail({ acknowledgedFindings: findings }, spanish)).not.toMatch(/\bhigh\b|HIGH|checkFraud/);
    expect(describeAuditDetail({ fourEyes: 'high-risk-approvals' }, spanish)).toBe(
      'Requieren segunda revisión: Aprobaciones con un hallazgo de severidad alta, riesgo de fraude alto o ninguna validación ejecutada',
    );
    // Another shape is shown as written.
    expect(describeFinding('something else', 'es')).toBe('something else');
  });
});
