import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AddResult } from '../../../common/ipc/queue';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useBilingual, useT } from '../../i18n/index';
import { Button, ErrorNotice, Field, FileField, Panel, TextAreaField } from '../../ui/index';
import { messages } from './messages';
import { SessionStatusBadge, useEntryLabel } from './shared';

/** Above the queue, behind its "Add interviews" button: adding interviews (by id, link, pasted list or CSV) and the demo environment's seeded ones. */

function ImportSummary({ result }: { result: AddResult }) {
  const t = useT(messages);
  const pick = useBilingual();
  return (
    <div className={`notice ${result.problems.length ? 'notice-warn' : 'notice-ok'}`} role="status">
      <p>
        {t('importResult', {
          added: result.added.length,
          updated: result.updated.length,
          tokens: result.tokensAttached,
        })}
      </p>
      {result.problems.length > 0 && (
        <>
          <p>{t('importProblems', { n: result.problems.length })}</p>
          <ul className="small">
            {result.problems.slice(0, 20).map((p) => (
              <li key={`${p.line}-${p.text}`}>
                {t('lineN', { n: p.line })}: {pick(p.message)}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

export function AddPanel({ autoFocus = false }: { autoFocus?: boolean }) {
  const t = useT(messages);
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [token, setToken] = useState('');
  const [pasted, setPasted] = useState('');
  const [result, setResult] = useState<AddResult | null>(null);
  const invalidate = [keys.queue.all()];
  const add = useOmniMutation(
    (api, input: { interviewId: string; sessionToken?: string }) => api.queue.add({ items: [input] }),
    { invalidate, onSuccess: (r) => setResult(r) },
  );
  const deepLink = useOmniMutation((api, url: string) => api.queue.openDeepLink({ url }), {
    invalidate,
    onSuccess: (r) => navigate(`/interviews/${encodeURIComponent(r.interviewId)}`, { state: { linkOpened: r } }),
  });
  const importText = useOmniMutation(
    (api, input: { text: string; format: 'auto' | 'csv' }) => api.queue.importText(input),
    { invalidate, onSuccess: (r) => setResult(r) },
  );
  const error = add.error ?? deepLink.error ?? importText.error;

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    const value = id.trim();
    if (!value) return;
    if (value.toLowerCase().startsWith('omni-reviewer:')) deepLink.mutate(value);
    else
      add.mutate(
        { interviewId: value, ...(token.trim() ? { sessionToken: token.trim() } : {}) },
        {
          onSuccess: () => {
            setId('');
            setToken('');
          },
        },
      );
  };

  return (
    <section className="panel" aria-labelledby="add-title">
      <div className="panel-header">
        <h2 id="add-title">{t('addTitle')}</h2>
      </div>
      <form onSubmit={onAdd}>
        <Field
          label={t('addId')}
          hint={t('addIdHint')}
          mono
          value={id}
          onChange={(e) => setId(e.target.value)}
          name="interviewId"
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
        />
        <Field
          label={t('addToken')}
          hint={t('addTokenHint')}
          mono
          type="password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          name="sessionToken"
          autoComplete="off"
        />
        <Button type="submit" variant="primary" disabled={!id.trim() || add.isPending}>
          {t('addButton')}
        </Button>
      </form>
      <details className="import-details">
        <summary>{t('importTitle')}</summary>
        <TextAreaField
          id="paste-list"
          label={t('pasteLabel')}
          hint={t('pasteHint')}
          mono
          rows={5}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          spellCheck={false}
        />
        <Button
          disabled={!pasted.trim() || importText.isPending}
          onClick={() => importText.mutate({ text: pasted, format: 'auto' }, { onSuccess: () => setPasted('') })}
        >
          {t('pasteButton')}
        </Button>
        <div className="queue-csv">
          <FileField
            label={t('csvLabel')}
            accept=".csv,text/csv,text/plain"
            hint={t('csvHint')}
            onFile={async (file) => {
              if (file) importText.mutate({ text: await file.text(), format: 'csv' });
            }}
          />
        </div>
      </details>
      {error && <ErrorNotice error={error.data} />}
      {result && <ImportSummary result={result} />}
    </section>
  );
}

export function DemoSeedsPanel() {
  const t = useT(messages);
  const labelOf = useEntryLabel();
  const seeds = useOmniQuery(keys.queue.demoSeeds(), (api) => api.queue.demoSeeds({}));
  const addSeeds = useOmniMutation(
    (api, ids: string[] | undefined) => api.queue.addDemoSeeds(ids ? { interviewIds: ids } : {}),
    {
      invalidate: [keys.queue.all()],
    },
  );
  if (seeds.data && seeds.data.length === 0) return null;
  return (
    <Panel
      title={t('demoTitle')}
      query={seeds}
      actions={
        <Button
          onClick={() => addSeeds.mutate(undefined)}
          disabled={addSeeds.isPending || seeds.data?.every((s) => s.inQueue)}
        >
          {t('demoAddAll')}
        </Button>
      }
    >
      {(list) => (
        <>
          <p className="small muted">{t('demoIntro')}</p>
          {addSeeds.error && <ErrorNotice error={addSeeds.error.data} />}
          <ul className="seed-list">
            {list.map((s) => (
              <li key={s.interviewId}>
                <span>
                  <span className="mono">{s.interviewId}</span>
                  <span className="small muted"> · {labelOf(s)}</span>
                </span>
                <span className="seed-actions">
                  <SessionStatusBadge status={s.sessionStatus} />
                  {s.inQueue ? (
                    <span className="small muted">{t('demoInQueue')}</span>
                  ) : (
                    <Button
                      onClick={() => addSeeds.mutate([s.interviewId])}
                      aria-label={`${t('demoAdd')} ${s.interviewId}`}
                    >
                      {t('demoAdd')}
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
