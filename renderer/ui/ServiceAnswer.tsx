import { useState } from 'react';
import type { ServiceAnswer } from '../../common/views';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';
import { Button } from './Button';

/** Which top-level fields of the answer a panel speaks for (a panel showing one part of a shared answer). */
interface Part {
  only?: string[];
  except?: string[];
}

const inPart = (path: string, { only, except }: Part) => {
  const top = path.split('.')[0]!;
  return (!only || only.includes(top)) && !except?.includes(top);
};

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Fields the service sent that the spec does not list, so an analyst notices them without opening the raw answer.
 * One line per field: list items are grouped (`checkResults[].engine`) with their distinct values.
 */
export function BeyondSpec({ answer, ...part }: { answer: ServiceAnswer } & Part) {
  const t = useT(common);
  const groups = new Map<string, string[]>();
  for (const { path, value } of answer.beyondSpec) {
    if (!inPart(path, part)) continue;
    const field = path.replace(/\.(\d+)(?=\.|$)/g, '[]').replace(/^(\d+)(?=\.|$)/, '[]');
    const values = groups.get(field) ?? [];
    if (!values.includes(shown(value))) values.push(shown(value));
    groups.set(field, values);
  }
  if (groups.size === 0) return null;
  return (
    <div className="beyond-spec" data-testid="beyond-spec" role="note">
      <p className="small">
        <strong>{t('beyondSpecTitle')}</strong>{' '}
        <span className="muted" title={t('beyondSpecNote')}>
          ({t('notInSpec')})
        </span>
      </p>
      <dl className="small">
        {[...groups].map(([field, values]) => (
          <div key={field}>
            <dt className="mono">{field}</dt>
            <dd className="mono">{values.join(', ')}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * The answer as the client read it, collapsed under one quiet line at the foot of a panel. Drawn only once opened:
 * the workspace's panels open often and most analysts never look.
 */
export function RawAnswer({ answer, part }: { answer: ServiceAnswer; part?: string }) {
  const t = useT(common);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const body =
    part && typeof answer.body === 'object' && answer.body !== null ? (answer.body as never)[part] : answer.body;
  const text = open ? JSON.stringify(body, null, 2) : '';
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <details className="service-answer" data-testid="service-answer" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="small muted">
        {t('serviceAnswer')}{' '}
        <span className="mono">
          {answer.endpoint}
          {part ? `.${part}` : ''}
        </span>
      </summary>
      {open && (
        <div className="service-answer-box">
          <div className="service-answer-bar small muted">
            <span>{t('serviceAnswerNote')}</span>
            <Button variant="link" onClick={copy}>
              {copied ? t('copied') : t('copy')}
            </Button>
          </div>
          {/* Focusable: it scrolls, and a keyboard must reach what is below its fold. */}
          <pre
            className="mono"
            data-testid="service-answer-body"
            tabIndex={0}
            role="region"
            aria-label={`${t('serviceAnswer')} ${answer.endpoint}${part ? `.${part}` : ''}`}
          >
            {text}
          </pre>
        </div>
      )}
    </details>
  );
}

/** Both, as most panels want them: the fields beyond the spec in view, the whole answer a click away. */
export function ServiceAnswerView({ answer, part, ...filter }: { answer: ServiceAnswer; part?: string } & Part) {
  return (
    <>
      <BeyondSpec answer={answer} {...(part ? { only: [part] } : filter)} />
      <RawAnswer answer={answer} {...(part ? { part } : {})} />
    </>
  );
}
