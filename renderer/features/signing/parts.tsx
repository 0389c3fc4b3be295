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
}: {
  t: T;
  artifactId: string;
  available: Record<ArtifactKind, boolean>;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const save = useOmniMutation((api, kind: ArtifactKind) => api.nom151.saveArtifact({ artifactId, kind }), {
    onSuccess: (saved) => {
      if (!saved) return setMessage(t('saveCancelled'));
      if (saved.downloadUrl) {
        startDownload(saved.downloadUrl, saved.fileName);
        setMessage(t('downloadStarted', { name: saved.fileName }));
      } else setMessage(t('savedTo', { path: saved.savedTo ?? saved.fileName }));
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
      <h3>{t('saveTitle')}</h3>
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
