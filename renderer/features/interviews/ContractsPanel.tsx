import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { ContractDocument, ContractSeal } from '../../../common/ipc/interview';
import { keys, readAgain, useOmniMutation, useOmniQuery } from '../../api/index';
import { useFormat, useT } from '../../i18n/index';
import {
  Button,
  ErrorNotice,
  IconCheck,
  IconMinus,
  IconWarning,
  Panel,
  ProgressBar,
  ServiceAnswerView,
  useTaskNotifier,
} from '../../ui/index';
import { messages } from './messages';
import { PdfViewer } from './PdfViewer';
import { useEndedSessionText } from './session-ended';
import { followSaved, toBase64 } from './shared';

export function ContractsPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const queryClient = useQueryClient();
  // Read again at each opening (shown meanwhile as last read): a contract sealed on Signing a moment ago says so here.
  const q = useOmniQuery(keys.interview.contracts(interviewId), (api) => api.interview.contracts({ interviewId }), {
    refetchOnMount: 'always',
  });
  const [openId, setOpenId] = useState<string | null>(null);
  const renewedFor = useRef<string | null>(null);

  // The contract links carry the session status, which main records: reload the overview (header, forms) only when
  // it holds another status, so an unchanged one costs no call. Observed, not fetched, from here.
  const status = q.data?.data.sessionStatus;
  const known = useOmniQuery(keys.interview.overview(interviewId), (api) => api.interview.overview({ interviewId }), {
    enabled: false,
  });
  const overviewStatus = known.data ? (known.data.entry.sessionStatus ?? null) : undefined;
  useEffect(() => {
    if (status && overviewStatus !== undefined && overviewStatus !== status)
      void readAgain(queryClient, { queryKey: keys.interview.overview(interviewId) });
  }, [status, overviewStatus, interviewId, queryClient]);

  const ended = useEndedSessionText(interviewId);
  const open = q.data?.data.documents.find((d) => d.documentId === openId);
  return (
    <Panel
      title={t('contractsTitle')}
      query={q}
      isEmpty={(d) => d.data.documents.length === 0 && !d.data.unreadable?.length}
      // A Deleted or Closed session answers with no links: say why, not "no contracts".
      empty={t('contractsEmpty')}
      because={ended}
      footer={(d) => <ServiceAnswerView answer={d.data.answer} />}
    >
      {(d) => (
        <>
          {d.data.unreadable?.length ? (
            <p className="notice notice-warn" role="status" data-testid="contracts-unreadable">
              <IconWarning /> {t('contractsUnreadable', { ids: d.data.unreadable.join(', ') })}
            </p>
          ) : null}
          <ul className="contract-list">
            {d.data.documents.map((doc) => (
              <ContractRow
                key={doc.documentId}
                interviewId={interviewId}
                doc={doc}
                isOpen={doc.documentId === openId}
                onOpen={() => setOpenId(doc.documentId)}
              />
            ))}
          </ul>
          {open && (
            <PdfViewer
              url={open.url}
              title={open.documentId}
              onClose={() => setOpenId(null)}
              onFailed={() => {
                // An expired temporary link: fetch fresh links once, the viewer reloads with the new URL.
                if (renewedFor.current === open.url) return false;
                renewedFor.current = open.url;
                void q.refetch();
                return true;
              }}
            />
          )}
        </>
      )}
    </Panel>
  );
}

/**
 * Whether this contract has its constancia: the latest NOM-151 seal of it on this environment's trail, in words and an
 * icon (not colour alone). The folio is the trail's text, shown as text.
 */
function SealStatus({ seal }: { seal: ContractSeal | undefined }) {
  const t = useT(messages);
  const format = useFormat();
  if (!seal)
    return (
      <span className="contract-seal contract-seal-none" data-testid="contract-seal">
        <IconMinus /> {t('sealNone')}
      </span>
    );
  const date = format.dateTime(seal.at);
  const text = seal.valid
    ? seal.folio !== null
      ? t('sealDone', { folio: seal.folio, date })
      : t('sealDoneNoFolio', { date })
    : seal.folio !== null
      ? t('sealFailed', { folio: seal.folio, date })
      : t('sealFailedNoFolio', { date });
  return (
    <span
      className={`contract-seal ${seal.valid ? 'contract-seal-done' : 'contract-seal-failed'}`}
      data-testid="contract-seal"
    >
      {seal.valid ? <IconCheck /> : <IconWarning />} {text}
      {seal.by !== undefined && <> · {t('sealBy', { who: seal.by })}</>}
    </span>
  );
}

interface Progress {
  done: number;
  total?: number;
  startedAt: number;
  now: number;
}

function ContractRow({
  interviewId,
  doc,
  isOpen,
  onOpen,
}: {
  interviewId: string;
  doc: ContractDocument;
  isOpen: boolean;
  onOpen: () => void;
}) {
  const t = useT(messages);
  const navigate = useNavigate();
  const [progress, setProgress] = useState<Progress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const save = useOmniMutation(
    (api, bytes: Uint8Array) =>
      api.interview.saveFile({
        interviewId,
        what: 'contract',
        documentId: doc.documentId,
        suggestedName: `${doc.documentId}.pdf`.replace(/[^\w.-]/g, '_'),
        mimeType: 'application/pdf',
        dataBase64: toBase64(bytes),
      }),
    { invalidate: [keys.interview.audit(interviewId)], onSuccess: (saved) => followSaved(saved) },
  );
  const [downloadError, setDownloadError] = useState(false);
  // The bar leaves in `finally`, before the file is saved: the notification comes from here, not from the bar.
  const notify = useTaskNotifier();
  const task = t('taskContract', { id: doc.documentId });

  /** Streams the PDF through the media route so the bar shows bytes, rate and time left; cancel aborts it. */
  const download = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setDownloadError(false);
    const startedAt = Date.now();
    setProgress({ done: 0, startedAt, now: startedAt });
    try {
      const res = await fetch(doc.url, { signal: controller.signal });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      const total = Number(res.headers.get('content-length')) || undefined;
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let done = 0;
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        chunks.push(chunk.value);
        done += chunk.value.byteLength;
        setProgress({ done, ...(total ? { total } : {}), startedAt, now: Date.now() });
      }
      const bytes = new Uint8Array(done);
      let offset = 0;
      for (const c of chunks) {
        bytes.set(c, offset);
        offset += c.byteLength;
      }
      save.mutate(bytes, { onSuccess: () => notify(task, 'done'), onError: () => notify(task, 'failed') });
    } catch {
      if (controller.signal.aborted) return;
      setDownloadError(true);
      notify(task, 'failed');
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  return (
    <li className={isOpen ? 'open' : undefined}>
      <div className="contract-row">
        <span className="contract-name">
          <span className="mono">{doc.documentId}</span>
          <SealStatus seal={doc.seal} />
        </span>
        <span className="contract-actions">
          <Button onClick={onOpen} aria-pressed={isOpen} aria-label={`${t('openPdf')} ${doc.documentId}`}>
            {t('openPdf')}
          </Button>
          <Button
            onClick={() => void download()}
            disabled={!!progress || save.isPending}
            aria-label={`${t('savePdf')} ${doc.documentId}`}
          >
            {t('savePdf')}
          </Button>
          {/* Opens Signing, which does not seal by itself: it reads ?contract= and fills the contract id in, and
              offers the way back to this interview (the navigation state). */}
          <Button
            onClick={() =>
              navigate(`/signing?${new URLSearchParams({ contract: doc.documentId }).toString()}`, {
                state: { fromInterview: interviewId },
              })
            }
            aria-label={`${t('openInSigning')} ${doc.documentId}`}
          >
            {t('openInSigning')}
          </Button>
        </span>
      </div>
      {progress && (
        <ProgressBar
          label={t('downloading', { id: doc.documentId })}
          task={task}
          done={progress.done}
          {...(progress.total ? { total: progress.total } : {})}
          startedAt={progress.startedAt}
          now={progress.now}
          onCancel={() => abort.current?.abort()}
        />
      )}
      {downloadError && (
        <p className="notice notice-danger" role="alert">
          {t('pdfError')}
        </p>
      )}
      {save.error && <ErrorNotice error={save.error.data} />}
      {save.isSuccess && save.data && (
        <p className="small" role="status">
          {save.data.savedTo ? t('saved', { path: save.data.savedTo }) : t('savedDownload')}
        </p>
      )}
    </li>
  );
}
