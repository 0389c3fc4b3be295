import { useState } from 'react';
import type { BatchKind, BatchPreviewView } from '../../../common/ipc/validation';
import { useOmniMutation } from '../../api/index';
import { useFormat, useT } from '../../i18n/index';
import { messages } from './messages';

const MAX_CSV_BYTES = 20 * 1024 * 1024;

/** The chosen CSV, main's preview of it, and the run's settings (column, kind, header, concurrency). */
export function useBatchSetup() {
  const t = useT(messages);
  const f = useFormat();
  const [csvText, setCsvText] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [preview, setPreview] = useState<BatchPreviewView | null>(null);
  const [column, setColumn] = useState(0);
  const [kind, setKind] = useState<BatchKind>('rfc');
  const [hasHeader, setHasHeader] = useState(true);
  const [concurrency, setConcurrency] = useState(4);
  const previewCall = useOmniMutation((api, text: string) => api.validation.batchPreview({ csvText: text }));

  /** A new file is previewed by main, which suggests the column and kind it holds. */
  const chooseFile = async (file: File | undefined) => {
    setPreview(null);
    setCsvText(null);
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_CSV_BYTES) return setFileError(t('fileTooLarge', { size: f.bytes(file.size) }));
    const text = await file.text();
    setCsvText(text);
    previewCall.mutate(text, {
      onSuccess: (p) => {
        setPreview(p);
        setHasHeader(p.hasHeader);
        if (p.suggested) {
          setColumn(p.suggested.column);
          setKind(p.suggested.kind);
        }
      },
    });
  };

  return {
    csvText,
    fileError,
    preview,
    previewError: previewCall.error,
    chooseFile,
    column,
    setColumn,
    kind,
    setKind,
    hasHeader,
    setHasHeader,
    concurrency,
    setConcurrency,
  };
}

export type BatchSetupState = ReturnType<typeof useBatchSetup>;
