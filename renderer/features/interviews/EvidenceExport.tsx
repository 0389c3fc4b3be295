import { type FormEvent, useState } from 'react';
import { keys, useOmniMutation } from '../../api/index';
import { useLocale, useT } from '../../i18n/index';
import { Button, ErrorNotice, Field } from '../../ui/index';
import { messages } from './messages';
import { followSaved } from './shared';

/**
 * The interview's evidence file for the regulator: asks why it is exported (said in the file and in the trail), then
 * main writes it in the screen's language and saves it (a save dialog in Electron, a download in the web shell).
 */
export function EvidenceExport({ interviewId, onClose }: { interviewId: string; onClose: () => void }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const [purpose, setPurpose] = useState('');
  const [touched, setTouched] = useState(false);
  const exportFile = useOmniMutation(
    (api, why: string) => api.evidence.exportFile({ interviewId, language: locale, purpose: why }),
    {
      invalidate: [keys.interview.audit(interviewId)],
      onSuccess: (saved) => void followSaved(saved),
    },
  );
  const tooShort = purpose.trim().length < 3;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!tooShort) exportFile.mutate(purpose.trim());
  };
  const saved = exportFile.data;
  return (
    <section className="evidence-export" aria-labelledby={`evidence-${interviewId}`} data-testid="evidence-export">
      <h3 id={`evidence-${interviewId}`}>{t('evidenceTitle')}</h3>
      <p className="small muted">{t('evidenceIntro')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('evidencePurpose')}
          hint={t('evidencePurposeHint')}
          value={purpose}
          maxLength={500}
          onChange={(e) => setPurpose(e.target.value)}
          error={touched && tooShort ? t('evidencePurposeMissing') : undefined}
          data-testid="evidence-purpose"
        />
        <span className="panel-actions">
          <Button type="submit" variant="primary" disabled={exportFile.isPending}>
            {exportFile.isPending ? t('evidenceExporting') : t('evidenceExport')}
          </Button>
          <Button onClick={onClose}>{t('evidenceClose')}</Button>
        </span>
      </form>
      {exportFile.error && <ErrorNotice error={exportFile.error.data} />}
      {exportFile.isSuccess && (
        <p className="small" role="status" data-testid="evidence-saved">
          {!saved
            ? t('evidenceNotSaved')
            : saved.savedTo
              ? t('evidenceSaved', { path: saved.savedTo, hash: saved.manifestSha256 })
              : t('evidenceDownloaded', { name: saved.fileName, hash: saved.manifestSha256 })}
        </p>
      )}
    </section>
  );
}
