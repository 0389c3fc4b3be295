import { type ReactNode, useState } from 'react';
import type { ArtifactKind } from '../../../common/ipc/nom151';
import { type OmniCallError, useOmniMutation } from '../../api/index';
import type { Translate } from '../../i18n/index';
import { Button, ErrorNotice, IconCheck, Skeleton } from '../../ui/index';
import { startDownload } from './files';
import { messages } from './messages';

/** The translator of the signing area's messages. */
export type T = Translate<(typeof messages)['en']>;

/**
 * The four states of an action's result: empty (nothing done yet, and why), loading, error (with retry and
 * code) and data.
 */
export function ActionResult<D>({
  state,
  empty,
  onRetry,
  children,
}: {
  state: { isPending: boolean; error: OmniCallError | null; data: D | undefined };
  empty: string;
  onRetry: () => void;
  children: (data: D) => ReactNode;
}) {
  let body: ReactNode;
  if (state.isPending) body = <Skeleton rows={4} />;
  else if (state.error) body = <ErrorNotice error={state.error.data} onRetry={onRetry} />;
  else if (state.data !== undefined) body = children(state.data);
  else body = <p className="panel-empty">{empty}</p>;
  return (
    <div className="nom-action-result" aria-live="polite">
      {body}
    </div>
  );
}

export function SaveButtons({
  t,
  artifactId,
  available,
  heading: Heading = 'h3',
  onSaved,
  onGone,
}: {
  t: T;
  artifactId: string;
  available: Record<ArtifactKind, boolean>;
  /** The level of "Save to disk" under the heading the buttons sit below. */
  heading?: 'h3' | 'h4' | 'h5';
  /** Told of each file saved (or whose download started), even when the screen was left meanwhile. */
  onSaved?: (kind: ArtifactKind) => void;
  /** Told when main no longer keeps the files (it keeps those of the latest results only). */
  onGone?: () => void;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const save = useOmniMutation((api, kind: ArtifactKind) => api.nom151.saveArtifact({ artifactId, kind }), {
    onSuccess: (saved, kind) => {
      if (!saved) return setMessage(t('saveCancelled'));
      onSaved?.(kind);
      if (saved.downloadUrl) {
        startDownload(saved.downloadUrl, saved.fileName);
        setMessage(t('downloadStarted', { name: saved.fileName }));
      } else setMessage(t('savedTo', { path: saved.savedTo ?? saved.fileName }));
    },
    onError: (error) => {
      if (error.data.code === 'NOM151_ARTIFACT_GONE') onGone?.();
    },
  });
  const button = (kind: ArtifactKind, label: string) => (
    <Button
      onClick={() => {
        setMessage(null);
        save.mutate(kind);
      }}
      disabled={!available[kind] || save.isPending}
      title={available[kind] ? undefined : t('notIncluded')}
    >
      {label}
      {!available[kind] && <span className="muted small"> ({t('notIncluded')})</span>}
    </Button>
  );
  return (
    <div className="nom-save">
      <Heading className="nom-save-title">{t('saveTitle')}</Heading>
      <div className="nom-row">
        {button('evidence', t('saveEvidence'))}
        {available.signedDocument && button('signedDocument', t('saveSignedDocument'))}
        {available.sealedPdf && button('sealedPdf', t('saveSealedPdf'))}
      </div>
      {message && (
        <p role="status" className="nom-saved">
          <IconCheck /> {message}
        </p>
      )}
      {save.error && (
        <ErrorNotice error={save.error.data} onRetry={() => save.variables && save.mutate(save.variables)} />
      )}
    </div>
  );
}

export function Checkbox({
  checked,
  onChange,
  label,
  hint,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  label: string;
  hint: string;
}) {
  return (
    <label className="nom-checkbox">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="nom-checkbox-label">{label}</span>
        <span className="hint">{hint}</span>
      </span>
    </label>
  );
}
