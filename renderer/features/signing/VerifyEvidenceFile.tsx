import { type FormEvent, useRef, useState } from 'react';
import type { IpcErrorData } from '../../../common/ipc/define';
import { MAX_EVIDENCE_FILE_BYTES, type EvidenceCheck, type EvidenceVerification } from '../../../common/ipc/evidence';
import { useOmniMutation } from '../../api/index';
import { useBilingual, useFormat } from '../../i18n/index';
import { Badge, Button, ErrorNotice, FileField, IconCheck, IconDanger } from '../../ui/index';
import { useAuditLabels } from '../interviews/audit-labels';
import { fileReadError, type LoadedFile, readFileBase64 } from './files';
import { ActionResult, type T } from './parts';

type Input = { name: string; base64: string };

/**
 * Signing → Verify an evidence file: the steps of the file's VERIFY.txt run by main, against this environment's
 * trusted roots; the parts that failed first, then every check.
 */
export function VerifyEvidenceFile({ t }: { t: T }) {
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [touched, setTouched] = useState(false);
  const [readError, setReadError] = useState<IpcErrorData | null>(null);
  const verify = useOmniMutation((api, input: Input) => api.evidence.verifyFile(input));
  const last = useRef<Input | null>(null);

  const load = async (chosen: File | undefined) => {
    if (!chosen) return;
    setReadError(null);
    if (chosen.size > MAX_EVIDENCE_FILE_BYTES) {
      setReadError({
        code: 'FILE_TOO_LARGE',
        message: { en: t('fileTooLarge', { name: chosen.name }), es: t('fileTooLarge', { name: chosen.name }) },
      });
      return;
    }
    try {
      setFile(await readFileBase64(chosen));
    } catch {
      setReadError(fileReadError(chosen.name));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!file) return;
    last.current = { name: file.name, base64: file.base64 };
    verify.mutate(last.current);
  };

  return (
    <section className="panel signing-verify-file" aria-labelledby="evidence-file-title">
      <div className="panel-header">
        <h2 id="evidence-file-title">{t('fileTitle')}</h2>
      </div>
      <p className="muted">{t('fileIntro')}</p>
      <form onSubmit={submit} noValidate>
        <FileField
          label={t('fileLabel')}
          hint={t('fileHint')}
          file={file}
          testId="evidence-file-name"
          accept=".zip,application/zip"
          onFile={(f) => void load(f)}
          onClear={() => setFile(null)}
          error={touched && !file ? t('fileMissing') : undefined}
        />
        {readError && <ErrorNotice error={readError} />}
        <Button type="submit" variant="primary" disabled={verify.isPending}>
          {verify.isPending ? t('fileVerifying') : t('fileVerify')}
        </Button>
      </form>
      <ActionResult state={verify} empty={t('fileEmpty')} onRetry={() => last.current && verify.mutate(last.current)}>
        {(data) => <EvidenceFileResult t={t} result={data} />}
      </ActionResult>
    </section>
  );
}

function EvidenceFileResult({ t, result }: { t: T; result: EvidenceVerification }) {
  const f = useFormat();
  const pick = useBilingual();
  const audit = useAuditLabels();
  const untrustedOnly = !result.valid && result.checks.every((c) => c.outcome !== 'failed');
  const failed = result.checks.filter((c) => c.outcome !== 'ok');
  const step = (c: EvidenceCheck) =>
    t(
      (
        {
          container: 'stepContainer',
          manifestToken: 'stepManifestToken',
          manifest: 'stepManifest',
          checkpointToken: 'stepCheckpointToken',
          inclusion: 'stepInclusion',
          contractToken: 'stepContractToken',
          tokenSignature: 'stepTokenSignature',
          trail: 'stepTrail',
          agreement: 'stepAgreement',
        } as const
      )[c.step],
    );
  const outcome = (c: EvidenceCheck) =>
    t(
      (
        {
          ok: 'outcomeOk',
          failed: 'outcomeFailed',
          untrusted: 'outcomeUntrusted',
          notOnTrail: 'outcomeNotOnTrail',
        } as const
      )[c.outcome],
    );
  const anyUntrusted = result.checks.some((c) => c.outcome === 'untrusted');
  const table = (checks: EvidenceCheck[], testId: string) => (
    <table className="evidence-checks" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('colStep')}</th>
          <th scope="col">{t('colPart')}</th>
          <th scope="col">{t('colOutcome')}</th>
          <th scope="col">{t('colWhy')}</th>
        </tr>
      </thead>
      <tbody>
        {checks.map((c, i) => (
          <tr key={i} data-outcome={c.outcome}>
            <td>{step(c)}</td>
            <td className="mono">{c.part}</td>
            <td>{outcome(c)}</td>
            <td>
              {c.message ? pick(c.message) : ''}
              {c.detail && <div className="muted small">{pick(c.detail)}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className="evidence-result" data-testid="evidence-file-result" data-valid={result.valid}>
      <p>
        {result.valid ? (
          <Badge tone="ok" icon={<IconCheck />}>
            {t('fileValid')}
          </Badge>
        ) : untrustedOnly ? (
          <Badge tone="warn" icon={<IconDanger />}>
            {t(anyUntrusted ? 'fileUntrusted' : 'fileNotOnTrail')}
          </Badge>
        ) : (
          <Badge tone="danger" icon={<IconDanger />}>
            {t('fileInvalid', { n: result.failedParts.length })}
          </Badge>
        )}
      </p>
      {result.laterChanges && (
        <p className="notice notice-warn" data-testid="evidence-file-later">
          {t('fileLaterChanges', {
            n: result.laterChanges.count,
            action: audit.action(result.laterChanges.last.action),
            at: f.dateTime(result.laterChanges.last.at),
            seq: result.laterChanges.last.seq,
          })}
        </p>
      )}
      {result.interviewId && (
        <p>
          {t('fileSummary', {
            id: result.interviewId,
            at: result.exportedAt ? f.dateTime(result.exportedAt) : '—',
            by: result.exportedBy ?? '—',
          })}
          <br />
          {t('filePurpose', { purpose: result.purpose ?? '—' })}
        </p>
      )}
      {result.stampedAt && <p className="small">{t('fileStamped', { at: f.dateTime(result.stampedAt) })}</p>}
      <p className="small muted">
        {t('fileCounts', {
          parts: result.counts.parts,
          entries: result.counts.entries,
          checkpoints: result.counts.checkpoints,
          contracts: result.counts.contracts,
        })}
      </p>
      {result.unproved.length > 0 && (
        <p className="small">{t('fileUnproved', { seqs: result.unproved.map((s) => `#${s}`).join(', ') })}</p>
      )}
      {failed.length > 0 && (
        <>
          <h3>{t('fileFailedTitle')}</h3>
          {table(failed, 'evidence-failed')}
        </>
      )}
      <details>
        <summary>{t('fileAllChecks', { n: result.checks.length })}</summary>
        {table(result.checks, 'evidence-checks')}
      </details>
    </div>
  );
}
