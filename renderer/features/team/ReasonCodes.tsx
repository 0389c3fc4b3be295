import { type ClipboardEvent, type FormEvent, useMemo, useRef, useState } from 'react';
import { type DecisionKind, ReasonCodeName } from '../../../common/ipc/interview';
import type { ReasonCode, TeamOverviewView } from '../../../common/ipc/team';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Badge, Button, ErrorNotice, IconWarning, Panel, useEnvironmentScope, useKeptState } from '../../ui/index';
import { useDecisionWord } from '../interviews/shared';
import { messages } from './messages';

const KINDS: DecisionKind[] = ['approve', 'reject', 'requestNewCapture'];

/** How long a label may be (the field cuts what is longer, and says so when a paste was cut). */
const LABEL_MAX = 80;

/**
 * Which record the team's rules and codes being edited belong to: the environment's, on this computer or on a team
 * database. An edit kept for one is not shown for the other.
 */
export function useRecordScope(): string {
  const environment = useEnvironmentScope();
  const status = useOmniQuery(keys.team.status(), (api) => api.team.status({}));
  return `${environment}.${status.data?.engine ?? ''}`;
}

/** Beside a Save: the form holds edits that differ from what is saved. */
export function UnsavedNote() {
  const t = useT(messages);
  return (
    <span role="status" data-testid="unsaved-changes">
      <Badge tone="warn" icon={<IconWarning />}>
        {t('unsavedChanges')}
      </Badge>
    </span>
  );
}

/** Decisions per day and reason code; a code's label as the team names it now. */
export function PerCode({ overview }: { overview: TeamOverviewView }) {
  const t = useT(messages);
  const f = useFormat();
  const word = useDecisionWord();
  const bilingual = useBilingual();
  const label = (decision: DecisionKind, code: string) => {
    const found = overview.reasonCodes.find((c) => c.decision === decision && c.code === code);
    return found ? bilingual(found) : code;
  };
  return (
    <table className="table" data-testid="team-per-code">
      <thead>
        <tr>
          <th scope="col">{t('colDay')}</th>
          <th scope="col">{t('colKind')}</th>
          <th scope="col">{t('colCode')}</th>
          <th scope="col" className="num">
            {t('colCount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {overview.decisionsByCode.map((r) => (
          <tr key={`${r.day} ${r.decision} ${r.code ?? ''}`} data-code={r.code ?? ''}>
            <td>{r.day}</td>
            <td>{word(r.decision)}</td>
            <td>
              {r.code ? (
                <>
                  {label(r.decision, r.code)} <span className="mono small muted">{r.code}</span>
                </>
              ) : (
                <span className="muted">{t('noCode')}</span>
              )}
            </td>
            <td className="num">{f.number(r.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The team's reason codes, to change: the Team screen's rules on a team database, Settings on this computer's. */
export function ReasonCodesPanel() {
  const t = useT(messages);
  const codes = useOmniQuery(keys.team.reasonCodes(), (api) => api.team.reasonCodes({}));
  return (
    <Panel title={t('reasonCodes')} query={codes}>
      {(list) => <ReasonCodesEditor codes={list} />}
    </Panel>
  );
}

/** A code row being edited; `saved` codes keep their name (decisions are counted under it). */
interface Row extends ReasonCode {
  saved: boolean;
}

const sameRow = (a: Row, b: Row) =>
  a.decision === b.decision &&
  a.code === b.code &&
  a.en === b.en &&
  a.es === b.es &&
  a.active === b.active &&
  a.saved === b.saved;

function ReasonCodesEditor({ codes }: { codes: ReasonCode[] }) {
  const t = useT(messages);
  const word = useDecisionWord();
  const savedRows = useMemo((): Row[] => codes.map((c) => ({ ...c, saved: true })), [codes]);
  // Edits not saved yet outlive the screen (Settings shows this editor too, under the same key for the same record):
  // kept until the save is confirmed, the saved codes shown while there are none.
  const [rows, setRows, forget] = useKeptState(`team.reasonCodes.${useRecordScope()}`, savedRows);
  const [tried, setTried] = useState(false);
  /** The label fields whose last paste was longer than the field takes, as `index.en` / `index.es`. */
  const [cut, setCut] = useState<ReadonlySet<string>>(new Set());
  const save = useOmniMutation((api, list: ReasonCode[]) => api.team.saveReasonCodes({ codes: list }), {
    invalidate: [keys.team.all()],
    onSuccess: () => {
      forget({ now: true });
      setCut(new Set());
    },
  });
  const unsaved = rows.length !== savedRows.length || rows.some((row, i) => !sameRow(row, savedRows[i]!));
  const update = (index: number, change: Partial<Row>) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, ...change } : r)));
  // The field's maxLength cuts a longer paste without a word: say so under the field, until the field is typed in.
  const pasting = useRef<string | null>(null);
  const markCut = (name: string, wasCut: boolean) =>
    setCut((all) => {
      if (wasCut === all.has(name)) return all;
      const next = new Set(all);
      if (wasCut) next.add(name);
      else next.delete(name);
      return next;
    });
  const onPasteLabel = (index: number, field: 'en' | 'es') => (e: ClipboardEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const selected = (input.selectionEnd ?? 0) - (input.selectionStart ?? 0);
    const room = LABEL_MAX - (input.value.length - selected);
    const pasted = e.clipboardData.getData('text/plain').replace(/\r?\n/g, '').length;
    const name = `${index}.${field}`;
    // A paste with no room left changes nothing, so no change of the field follows it.
    pasting.current = room > 0 && pasted > 0 ? name : null;
    markCut(name, pasted > room);
  };
  const changeLabel = (index: number, field: 'en' | 'es', value: string) => {
    const name = `${index}.${field}`;
    // The change a paste makes keeps its note; any other edit of the field ends it.
    if (pasting.current === name) pasting.current = null;
    else markCut(name, false);
    update(index, { [field]: value });
  };
  const cutNote = (index: number, field: 'en' | 'es') =>
    cut.has(`${index}.${field}`) && (
      <p className="notice notice-warn small" role="status" data-testid="paste-cut">
        <IconWarning /> {t('pasteCut', { max: LABEL_MAX })}
      </p>
    );
  const problemOf = (row: Row, index: number): string | undefined => {
    if (!ReasonCodeName.safeParse(row.code).success) return t('codeInvalid');
    if (rows.some((r, i) => i < index && r.decision === row.decision && r.code === row.code.trim()))
      return t('codeTwice');
    if (!row.en.trim() || !row.es.trim()) return t('labelsRequired');
    return undefined;
  };
  const problems = rows.map(problemOf);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.some(Boolean)) return;
    save.mutate(
      rows.map(({ decision, code, en, es, active }) => ({
        decision,
        code: code.trim(),
        en: en.trim(),
        es: es.trim(),
        active,
      })),
    );
  };
  return (
    <form className="reason-codes-editor" onSubmit={onSubmit} data-testid="reason-codes-editor" noValidate>
      <p className="muted small">{t('reasonCodesIntro')}</p>
      {KINDS.map((kind) => (
        <fieldset key={kind} className="reason-codes-kind" data-kind={kind}>
          <legend>{word(kind)}</legend>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('colCode')}</th>
                <th scope="col">{t('colLabelEn')}</th>
                <th scope="col">{t('colLabelEs')}</th>
                <th scope="col">{t('colInUse')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                if (row.decision !== kind) return null;
                const problem = tried ? problems[index] : undefined;
                const errorId = `reason-code-error-${kind}-${index}`;
                const described = problem ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
                return (
                  <tr key={index}>
                    <td>
                      {row.saved ? (
                        <span className="mono">{row.code}</span>
                      ) : (
                        <input
                          className="input mono"
                          aria-label={t('colCode')}
                          value={row.code}
                          onChange={(e) => update(index, { code: e.target.value })}
                          {...described}
                        />
                      )}
                      {problem && (
                        <span id={errorId} className="field-error small">
                          {problem}
                        </span>
                      )}
                    </td>
                    <td>
                      <input
                        className="input"
                        aria-label={`${t('colLabelEn')} (${row.code || t('newCode')})`}
                        value={row.en}
                        maxLength={LABEL_MAX}
                        onChange={(e) => changeLabel(index, 'en', e.target.value)}
                        onPaste={onPasteLabel(index, 'en')}
                      />
                      {cutNote(index, 'en')}
                    </td>
                    <td>
                      <input
                        className="input"
                        aria-label={`${t('colLabelEs')} (${row.code || t('newCode')})`}
                        value={row.es}
                        maxLength={LABEL_MAX}
                        onChange={(e) => changeLabel(index, 'es', e.target.value)}
                        onPaste={onPasteLabel(index, 'es')}
                      />
                      {cutNote(index, 'es')}
                    </td>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`${t('colInUse')} (${row.code || t('newCode')})`}
                        checked={row.active}
                        onChange={(e) => update(index, { active: e.target.checked })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Button
            onClick={() =>
              setRows((all) => [...all, { decision: kind, code: '', en: '', es: '', active: true, saved: false }])
            }
          >
            {t('addCode')}
          </Button>
        </fieldset>
      ))}
      {save.error && <ErrorNotice error={save.error.data} />}
      <div className="team-rules-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {t('saveCodes')}
        </Button>
        {unsaved && !save.isPending && <UnsavedNote />}
        {save.isSuccess && !unsaved && (
          <span role="status" className="muted">
            {t('codesSaved')}
          </span>
        )}
      </div>
    </form>
  );
}
