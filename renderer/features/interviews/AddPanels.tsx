import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { IMPORT_TEXT_MAX, InterviewId, SessionToken, type AddResult } from '../../../common/ipc/queue';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useBilingual, useFormat, useLocale, useT } from '../../i18n/index';
import {
  Button,
  ErrorNotice,
  Field,
  FileField,
  fieldsSayIt,
  issueAt,
  Panel,
  readTextFile,
  schemaReason,
  TextAreaField,
  textFileProblemWords,
  type TextFileProblem,
} from '../../ui/index';
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

/** main's paths for the fields of this form (a single add sends one item). */
const ID_PATHS = ['items.0.interviewId', 'url'];
const TOKEN_PATHS = ['items.0.sessionToken'];
const TEXT_PATHS = ['text'];

export function AddPanel({ autoFocus = false }: { autoFocus?: boolean }) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const { locale } = useLocale();
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [token, setToken] = useState('');
  const [pasted, setPasted] = useState('');
  const [result, setResult] = useState<AddResult | null>(null);
  // A field's rule is said once the form was sent with a value that breaks it, and from then on as it is typed (not
  // on leaving the field: the reason appearing then would move the button from under a click already started).
  const [checked, setChecked] = useState({ id: false, token: false });
  // The chosen CSV refused before it was read or sent (too large, not text), said at the file control.
  const [fileProblem, setFileProblem] = useState<TextFileProblem | null>(null);
  // Which of the two imports main answered: its refusal of `text` goes under that control.
  const [imported, setImported] = useState<'paste' | 'file'>('paste');
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

  const isLink = (value: string) => value.trim().toLowerCase().startsWith('omni-reviewer:');
  // The same schemas main checks the fields with; a link is main's to read.
  const idLocal = id.trim() && !isLink(id) ? schemaReason(InterviewId, id, locale, t('fieldInvalid')) : undefined;
  const tokenLocal = token.trim() ? schemaReason(SessionToken, token, locale, t('fieldInvalid')) : undefined;
  const mainSays = (paths: string[]) => issueAt(error?.data, paths, locale, t('fieldInvalid'));
  const idError = (checked.id ? idLocal : undefined) ?? mainSays(ID_PATHS);
  const tokenError = (checked.token ? tokenLocal : undefined) ?? mainSays(TOKEN_PATHS);
  const textError = mainSays(TEXT_PATHS);
  const fieldPaths = [...ID_PATHS, ...TOKEN_PATHS, ...TEXT_PATHS];

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    const value = id.trim();
    if (!value) return;
    setChecked({ id: true, token: true });
    // Refused here, before anything is sent: the first field to correct takes the focus.
    if (idLocal || tokenLocal)
      return document.getElementById(idLocal ? 'add-interview-id' : 'add-session-token')?.focus();
    if (isLink(value)) deepLink.mutate(value);
    else
      add.mutate(
        { interviewId: value, ...(token.trim() ? { sessionToken: token.trim() } : {}) },
        {
          onSuccess: () => {
            setId('');
            setToken('');
            setChecked({ id: false, token: false });
          },
        },
      );
  };

  const chooseCsv = async (file: File | undefined) => {
    setFileProblem(null);
    if (!file) return;
    const read = await readTextFile(file, IMPORT_TEXT_MAX);
    if (!read.ok) return setFileProblem(read.problem);
    setImported('file');
    importText.mutate({ text: read.text, format: 'csv' });
  };
  const fileError = fileProblem
    ? `${pick(textFileProblemWords(fileProblem))} ${
        fileProblem.kind === 'notText'
          ? t('csvNotTextAdvice')
          : fileProblem.kind === 'tooLarge'
            ? t('csvTooLargeAdvice')
            : ''
      }`.trim()
    : imported === 'file'
      ? textError
      : undefined;

  return (
    <section className="panel" aria-labelledby="add-title">
      <div className="panel-header">
        <h2 id="add-title">{t('addTitle')}</h2>
      </div>
      <form onSubmit={onAdd} noValidate>
        <Field
          id="add-interview-id"
          label={t('addId')}
          hint={t('addIdRuleHint')}
          error={idError}
          mono
          value={id}
          onChange={(e) => {
            setId(e.target.value);
            // main's refusal was of the value before this edit.
            if (add.error) add.reset();
            if (deepLink.error) deepLink.reset();
          }}
          name="interviewId"
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
        />
        <Field
          id="add-session-token"
          label={t('addToken')}
          hint={t('addTokenRuleHint')}
          error={tokenError}
          mono
          type="password"
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
            if (add.error) add.reset();
          }}
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
          error={imported === 'paste' ? textError : undefined}
          mono
          rows={5}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          spellCheck={false}
        />
        <Button
          disabled={!pasted.trim() || importText.isPending}
          onClick={() => {
            setImported('paste');
            setFileProblem(null);
            importText.mutate({ text: pasted, format: 'auto' }, { onSuccess: () => setPasted('') });
          }}
        >
          {t('pasteButton')}
        </Button>
        <div className="queue-csv">
          <FileField
            label={t('csvLabel')}
            accept=".csv,text/csv,text/plain"
            hint={t('csvLimitHint', { max: f.number(IMPORT_TEXT_MAX) })}
            error={fileError}
            testId="queue-csv-name"
            onFile={(file) => void chooseCsv(file)}
          />
        </div>
      </details>
      {error && !fieldsSayIt(error.data, fieldPaths) && <ErrorNotice error={error.data} />}
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
