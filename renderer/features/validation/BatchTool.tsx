import { useId } from 'react';
import type { OmniCallError } from '../../api/index';
import { useQueueList } from '../../api/queue';
import { useT } from '../../i18n/index';
import { ErrorNotice, FileField } from '../../ui/index';
import { hasSessionToken } from '../capture/InterviewPicker';
import { BatchRun } from './BatchRun';
import { BatchSetup } from './BatchSetup';
import { messages } from './messages';
import { useBatchRun } from './useBatchRun';
import { useBatchSetup } from './useBatchSetup';

/** RFCs or CURPs from a CSV checked in one batch: choose the file, set the run up, follow it, export the results. */
export function BatchTool({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const id = useId();
  const queue = useQueueList();
  const setup = useBatchSetup();
  const run = useBatchRun();
  const { csvText, preview, kind } = setup;

  const tokenReady = hasSessionToken(queue.data, interviewId);
  const canStart = csvText !== null && preview !== null && (kind === 'rfc' || tokenReady) && !run.starting;
  const onStart = () => {
    if (!csvText) return;
    const { column, hasHeader, concurrency } = setup;
    run.begin({ csvText, kind, column, hasHeader, concurrency, ...(kind === 'curp' ? { interviewId } : {}) });
  };
  const controlError: OmniCallError | null = run.callError ?? setup.previewError;

  return (
    <section className="panel batch" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('batchTitle')}</h2>
      <p className="muted">{t('batchIntro')}</p>
      <FileField
        label={t('fileLabel')}
        accept=".csv,text/csv,text/plain"
        disabled={run.running}
        hint={t('fileHint')}
        error={setup.fileError}
        onFile={(file) => void setup.chooseFile(file)}
      />
      {preview && (
        <BatchSetup
          id={id}
          setup={{ ...setup, preview }}
          running={run.running}
          tokenReady={tokenReady}
          interviewId={interviewId}
          canStart={canStart}
          onStart={onStart}
        />
      )}
      {controlError && <ErrorNotice error={controlError.data} />}
      {run.pollError && <ErrorNotice error={run.pollError} />}
      {run.job && <BatchRun run={run} job={run.job} onExport={() => run.exportRows(kind)} />}
    </section>
  );
}
