import { type FormEvent, useEffect, useState } from 'react';
import { type DecisionKind, ReasonCodeName } from '../../../common/ipc/interview';
import type { ReasonCode, TeamOverviewView } from '../../../common/ipc/team';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice, Panel } from '../../ui/index';
import { useDecisionWord } from '../interviews/shared';
import { messages } from './messages';

const KINDS: DecisionKind[] = ['approve', 'reject', 'requestNewCapture'];

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

function ReasonCodesEditor({ codes }: { codes: ReasonCode[] }) {
  const t = useT(messages);
  const word = useDecisionWord();
  const toRows = (list: ReasonCode[]): Row[] => list.map((c) => ({ ...c, saved: true }));
  const [rows, setRows] = useState(() => toRows(codes));
  const [tried, setTried] = useState(false);
  useEffect(() => setRows(toRows(codes)), [codes]);
  const save = useOmniMutation((api, list: ReasonCode[]) => api.team.saveReasonCodes({ codes: list }), {
    invalidate: [keys.team.all()],
  });
  const update = (index: number, change: Partial<Row>) =>
    setRows((all) => all.map((r, i) => (i === index ? { ...r, ...change } : r)));
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
                        maxLength={80}
                        onChange={(e) => update(index, { en: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input"
                        aria-label={`${t('colLabelEs')} (${row.code || t('newCode')})`}
                        value={row.es}
                        maxLength={80}
                        onChange={(e) => update(index, { es: e.target.value })}
                      />
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
        {save.isSuccess && (
          <span role="status" className="muted">
            {t('codesSaved')}
          </span>
        )}
      </div>
    </form>
  );
}
