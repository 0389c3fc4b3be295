import { useId, useState, type FormEvent } from 'react';
import type { QueueEntry } from '../../../common/ipc/queue';
import { keys, useOmniMutation } from '../../api/index';
import { useQueueList } from '../../api/queue';
import { defineMessages, useLocale, useT } from '../../i18n/index';
import { Button, ErrorNotice, IconCheck, IconLock, IconWarning, SelectField } from '../../ui/index';
import './picker.css';

/**
 * Picks the interview whose session token a session-bound call uses (selfie, back of ID, video, CURP).
 * The token itself stays in main; here the user only sees whether one is attached, and can attach one.
 */
const messages = defineMessages({
  en: {
    label: 'Interview',
    choose: 'Choose an interview…',
    loading: 'Reading the review queue…',
    noToken: 'no session token',
    tokenSet: 'Session token attached. It stays encrypted in this app and is never shown.',
    tokenMissing:
      'This interview has no session token, so calls on its behalf are disabled. Paste the token to attach it.',
    noneChosen: 'Choose the interview to act on. Calls on behalf of a user need its session token.',
    emptyQueue: 'The review queue is empty, so there is no interview to choose.',
    addDemo: 'Add the demo interviews',
    tokenLabel: 'Session token for {id}',
    attach: 'Attach token',
    attached: 'Token attached to {id}.',
    addOther: 'Add another interview',
    newId: 'Interview id',
    newToken: 'Its session token',
    add: 'Add interview',
  },
  es: {
    label: 'Entrevista',
    choose: 'Elige una entrevista…',
    loading: 'Leyendo la bandeja de revisión…',
    noToken: 'sin token de sesión',
    tokenSet: 'Token de sesión adjunto. Se guarda cifrado en esta aplicación y nunca se muestra.',
    tokenMissing:
      'Esta entrevista no tiene token de sesión, así que las llamadas a su nombre están deshabilitadas. Pega el token para adjuntarlo.',
    noneChosen:
      'Elige la entrevista sobre la que vas a actuar. Las llamadas a nombre de una persona necesitan su token de sesión.',
    emptyQueue: 'La bandeja de revisión está vacía, así que no hay entrevista para elegir.',
    addDemo: 'Agregar las entrevistas de demostración',
    tokenLabel: 'Token de sesión de {id}',
    attach: 'Adjuntar token',
    attached: 'Token adjunto a {id}.',
    addOther: 'Agregar otra entrevista',
    newId: 'Id de la entrevista',
    newToken: 'Su token de sesión',
    add: 'Agregar entrevista',
  },
});

/** Whether calls on behalf of `interviewId` can be made, from the queue's view of the vault. */
export function hasSessionToken(entries: QueueEntry[] | undefined, interviewId: string): boolean {
  return entries?.some((e) => e.interviewId === interviewId && e.hasSessionToken) ?? false;
}

export function InterviewPicker({ value, onChange }: { value: string; onChange: (interviewId: string) => void }) {
  const t = useT(messages);
  const { locale } = useLocale();
  const id = useId();
  const queue = useQueueList();
  const [token, setToken] = useState('');
  const [otherId, setOtherId] = useState('');
  const [otherToken, setOtherToken] = useState('');
  const [status, setStatus] = useState('');
  const invalidate = { invalidate: [keys.queue.all()] };
  const attach = useOmniMutation(
    (api, input: { interviewId: string; sessionToken: string }) => api.queue.attachToken(input),
    invalidate,
  );
  const add = useOmniMutation(
    (api, input: { interviewId: string; sessionToken: string }) => api.queue.add({ items: [input] }),
    invalidate,
  );
  const addDemo = useOmniMutation((api) => api.queue.addDemoSeeds({}), invalidate);

  if (queue.error) return <ErrorNotice error={queue.error.data} onRetry={() => void queue.refetch()} />;
  // While the queue is read, the picker keeps the shape it will have (a disabled list), so the tabs below it do not
  // move under a click the moment it arrives.
  const loading = !queue.data;
  const entries = queue.data ?? [];
  const selected = entries.find((e) => e.interviewId === value);

  const onAttach = (e: FormEvent) => {
    e.preventDefault();
    attach.mutate(
      { interviewId: value, sessionToken: token.trim() },
      {
        onSuccess: () => {
          setToken('');
          setStatus(t('attached', { id: value }));
        },
      },
    );
  };
  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    const interviewId = otherId.trim();
    add.mutate(
      { interviewId, sessionToken: otherToken.trim() },
      {
        onSuccess: () => {
          setOtherId('');
          setOtherToken('');
          onChange(interviewId);
          setStatus(t('attached', { id: interviewId }));
        },
      },
    );
  };

  return (
    <div className="interview-picker" aria-busy={loading}>
      {!loading && entries.length === 0 ? (
        <div className="notice">
          <p>{t('emptyQueue')}</p>
          <Button onClick={() => addDemo.mutate(undefined)} disabled={addDemo.isPending}>
            {t('addDemo')}
          </Button>
          {addDemo.error && <ErrorNotice error={addDemo.error.data} />}
        </div>
      ) : (
        <SelectField
          id={`${id}-select`}
          label={t('label')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-state`}
          disabled={loading}
        >
          <option value="">{t(loading ? 'loading' : 'choose')}</option>
          {entries.map((e) => {
            // The demo's interviews carry a Spanish label too; one from elsewhere has only the one it came with.
            const label = locale === 'es' ? (e.labelEs ?? e.label) : e.label;
            return (
              <option key={e.interviewId} value={e.interviewId}>
                {label ? `${label} — ${e.interviewId}` : e.interviewId}
                {e.hasSessionToken ? '' : ` (${t('noToken')})`}
              </option>
            );
          })}
        </SelectField>
      )}
      <p
        id={`${id}-state`}
        className={`picker-state${selected && !selected.hasSessionToken ? ' notice notice-warn' : ''}`}
        data-testid="token-state"
      >
        {!selected ? (
          <span className="muted">{t('noneChosen')}</span>
        ) : selected.hasSessionToken ? (
          <>
            <IconLock /> {t('tokenSet')}
          </>
        ) : (
          <>
            <IconWarning /> {t('tokenMissing')}
          </>
        )}
      </p>
      {selected && !selected.hasSessionToken && (
        <form className="picker-inline" onSubmit={onAttach}>
          <div className="field">
            <label htmlFor={`${id}-token`}>{t('tokenLabel', { id: selected.interviewId })}</label>
            <input
              id={`${id}-token`}
              className="input mono"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={token.trim().length < 8 || attach.isPending}>
            {t('attach')}
          </Button>
        </form>
      )}
      {attach.error && <ErrorNotice error={attach.error.data} />}
      <details className="picker-add">
        <summary>{t('addOther')}</summary>
        <form className="picker-inline" onSubmit={onAdd}>
          <div className="field">
            <label htmlFor={`${id}-new-id`}>{t('newId')}</label>
            <input
              id={`${id}-new-id`}
              className="input mono"
              value={otherId}
              onChange={(e) => setOtherId(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-new-token`}>{t('newToken')}</label>
            <input
              id={`${id}-new-token`}
              className="input mono"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={otherToken}
              onChange={(e) => setOtherToken(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={!otherId.trim() || otherToken.trim().length < 8 || add.isPending}>
            {t('add')}
          </Button>
        </form>
        {add.error && <ErrorNotice error={add.error.data} />}
      </details>
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {status && (
        <p className="small muted" aria-hidden="true">
          <IconCheck /> {status}
        </p>
      )}
    </div>
  );
}
