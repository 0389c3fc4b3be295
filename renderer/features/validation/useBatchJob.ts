import { useEffect, useRef, useState } from 'react';
import type { BatchJobView, BatchRowView } from '../../../common/ipc/validation';
import type { IpcErrorData } from '../../../common/ipc/define';
import { ipcErrorOf } from '../../api/index';
import { omni } from '../../api/omni';

const SHOWN_PROBLEMS = 500;
const POLL_MS = 400;

/** Polls a running batch with the last row sequence it has, keeping counts and the rows that need attention. */
export function useBatchJob(jobId: string | null) {
  const [job, setJob] = useState<BatchJobView | null>(null);
  const [problems, setProblems] = useState<BatchRowView[]>([]);
  const [problemCount, setProblemCount] = useState(0);
  const [error, setError] = useState<IpcErrorData | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    if (!jobId) return undefined;
    seq.current = 0;
    setProblems([]);
    setProblemCount(0);
    setError(null);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await omni().validation.batchStatus({ jobId, afterSeq: seq.current });
        if (stopped) return;
        seq.current = next.lastSeq;
        const bad = next.rows.filter((r) => r.status !== 'valid');
        if (bad.length) {
          setProblems((prev) => (prev.length >= SHOWN_PROBLEMS ? prev : [...prev, ...bad].slice(0, SHOWN_PROBLEMS)));
          setProblemCount((n) => n + bad.length);
        }
        setJob(next);
        if (next.state !== 'done' && next.state !== 'cancelled') timer = setTimeout(tick, POLL_MS);
      } catch (e) {
        if (!stopped) setError(ipcErrorOf(e));
      }
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId]);

  return { job, setJob, problems, problemCount, error };
}
