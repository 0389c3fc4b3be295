import { useState } from 'react';
import type { ServiceAnswer } from '../../common/views';
import { useTechnicalDetails } from '../api/preferences';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';
import { Button } from './Button';
import './service-answer.css';

/**
 * Which top-level fields of the answer a panel speaks for (a panel showing one part of a shared answer), and which
 * fields beyond the spec it already shows in its own way (`shown`, as listed: `[].organizationId`), so they are
 * neither listed again nor counted as hidden.
 */
interface Part {
  only?: string[];
  except?: string[];
  shown?: string[];
}

const inPart = (path: string, { only, except }: Part) => {
  const top = path.split('.')[0]!;
  return (!only || only.includes(top)) && !except?.includes(top);
};

const isShown = (field: string, shown: string[] | undefined) =>
  shown?.some((s) => field === s || field.startsWith(`${s}.`) || field.startsWith(`${s}[]`)) ?? false;

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The fields beyond the spec in `part`, list items grouped (`checkResults[].engine`), each with its distinct values. */
function beyondSpecGroups(answer: ServiceAnswer, part: Part): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { path, value } of answer.beyondSpec) {
    if (!inPart(path, part)) continue;
    const field = path.replace(/\.(\d+)(?=\.|$)/g, '[]').replace(/^(\d+)(?=\.|$)/, '[]');
    if (isShown(field, part.shown)) continue;
    const values = groups.get(field) ?? [];
    if (!values.includes(asText(value))) values.push(asText(value));
    groups.set(field, values);
  }
  return groups;
}

/**
 * Fields the service sent that the spec does not list. With technical details on: one line per field, in view. Off:
 * one quiet sentence that says how many there are and where to see them, so nothing the service sent goes unnoticed
 * and no field name reaches a reader who did not ask for them.
 */
export function BeyondSpec({ answer, ...part }: { answer: ServiceAnswer } & Part) {
  const t = useT(common);
  const technical = useTechnicalDetails();
  const groups = beyondSpecGroups(answer, part);
  if (groups.size === 0) return null;
  if (!technical)
    return (
      <p className="beyond-spec-hidden small muted" data-testid="beyond-spec-hidden">
        {groups.size === 1 ? t('beyondSpecHiddenOne') : t('beyondSpecHidden', { n: groups.size })}
      </p>
    );
  return (
    <div className="beyond-spec" data-testid="beyond-spec" role="note">
      <p className="small">
        <strong>{t('beyondSpecTitle')}</strong>{' '}
        <span className="muted" title={t('beyondSpecNote')}>
          ({t('beyondSpecMark')})
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
 * The answer as the client read it, collapsed under one quiet "Technical details" line at the foot of a panel, and
 * only when technical details are on (Settings → Preferences). Drawn only once opened: the workspace's panels open
 * often and most readers never look.
 */
export function RawAnswer({ answer, part }: { answer: ServiceAnswer; part?: string }) {
  const t = useT(common);
  const technical = useTechnicalDetails();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  if (!technical) return null;
  const body =
    part && typeof answer.body === 'object' && answer.body !== null ? (answer.body as never)[part] : answer.body;
  const text = open ? JSON.stringify(body, null, 2) : '';
  const source = `${answer.endpoint}${part ? `.${part}` : ''}`;
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <details className="service-answer" data-testid="service-answer" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="small muted">{t('technicalDetails')}</summary>
      {open && (
        <div className="service-answer-box">
          <p className="service-answer-source small muted">
            {t('technicalDetailsFrom')}{' '}
            <code className="mono" data-testid="service-answer-endpoint">
              {source}
            </code>
          </p>
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
            aria-label={`${t('technicalDetails')}: ${source}`}
          >
            {text}
          </pre>
        </div>
      )}
    </details>
  );
}

/**
 * Both, as most panels want them: the fields beyond the spec (listed, or counted while technical details are off),
 * and the whole answer a click away when they are on.
 */
export function ServiceAnswerView({ answer, part, shown, ...filter }: { answer: ServiceAnswer; part?: string } & Part) {
  return (
    <>
      <BeyondSpec answer={answer} {...(part ? { only: [part] } : filter)} {...(shown ? { shown } : {})} />
      <RawAnswer answer={answer} {...(part ? { part } : {})} />
    </>
  );
}
