import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DraftKind, Drafts } from '../../../common/ipc/interview';
import { keys, useOmniQuery } from '../../api/index';
import { omni } from '../../api/omni';

const SAVE_DELAY_MS = 250;

/**
 * Text kept as a draft in main from the first keystroke: the first change is saved at once, later ones after a
 * short pause, and any pending change is flushed before a send and when the screen closes.
 */
export function useDraft(interviewId: string, kind: DraftKind) {
  const queryClient = useQueryClient();
  const drafts = useOmniQuery(keys.interview.drafts(interviewId), (api) => api.interview.drafts({ interviewId }), {
    staleTime: Infinity,
  });
  const [text, setText] = useState('');
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const loaded = useRef(false);
  const pending = useRef<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    loaded.current = false;
  }, [interviewId]);

  useEffect(() => {
    if (loaded.current || !drafts.data) return;
    loaded.current = true;
    const draft = drafts.data[kind];
    setText(draft?.text ?? '');
    setSavedAt(draft?.updatedAt ?? null);
  }, [drafts.data, kind]);

  // One save at a time, in the order typed: two in flight could land out of order, and the older text, saved last,
  // was what a send straight after typing (Ctrl+Enter) took from main.
  const saving = useRef<Promise<void>>(Promise.resolve());
  const flush = useCallback((): Promise<void> => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const save = saving.current
      .catch(() => undefined)
      .then(async () => {
        const value = pending.current;
        if (value === null) return;
        pending.current = null;
        const next: Drafts = await omni().interview.saveDraft({ interviewId, kind, text: value });
        queryClient.setQueryData(keys.interview.drafts(interviewId), next);
        setSavedAt(next[kind]?.updatedAt ?? null);
      });
    saving.current = save;
    return save;
  }, [interviewId, kind, queryClient]);

  useEffect(() => () => void flush().catch(() => undefined), [flush]);

  const change = (value: string) => {
    const first = pending.current === null && !timer.current;
    setText(value);
    pending.current = value;
    window.clearTimeout(timer.current);
    if (first) void flush().catch(() => undefined);
    else
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        void flush().catch(() => undefined);
      }, SAVE_DELAY_MS);
  };

  const reset = () => {
    setText('');
    setSavedAt(null);
  };

  return { text, change, flush, reset, savedAt, draft: drafts.data?.[kind], loading: drafts.isPending };
}
