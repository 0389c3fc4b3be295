import type { FormEvent } from 'react';
import type { FourEyesRule, TeamSettings } from '../../../common/team-review';
import { keys, useOmniMutation } from '../../api/index';
import { useT } from '../../i18n/index';
import { Button, ErrorNotice, Field, SelectField, useKeptState } from '../../ui/index';
import { messages } from './messages';
import { UnsavedNote, useRecordScope } from './ReasonCodes';

/** Whether two sets of rules say the same. */
function sameRules(a: TeamSettings, b: TeamSettings): boolean {
  return a.fourEyes === b.fourEyes && a.targetHours === b.targetHours && a.leaseMinutes === b.leaseMinutes;
}

export /** The team's rules: when a decision needs a second reviewer, the queue's target age, how long a claim lasts. */
function Rules({ settings }: { settings: TeamSettings }) {
  const t = useT(messages);
  // An edit not saved yet outlives the screen (and the overview's reads every 30 s, which used to replace it): kept
  // until the save is confirmed, the saved rules shown while there is none.
  const [draft, setDraft, forget] = useKeptState(`team.rules.${useRecordScope()}`, settings);
  const save = useOmniMutation((api, s: TeamSettings) => api.team.saveSettings(s), {
    invalidate: [keys.team.all()],
    onSuccess: () => forget({ now: true }),
  });
  const unsaved = !sameRules(draft, settings);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft);
  };
  const rules: { value: FourEyesRule; label: string }[] = [
    { value: 'high-risk-approvals', label: t('fourEyesHigh') },
    { value: 'all-approvals', label: t('fourEyesAll') },
    { value: 'none', label: t('fourEyesNone') },
  ];
  return (
    <form className="team-rules" onSubmit={onSubmit} data-testid="team-rules">
      <SelectField
        className="input"
        label={t('fourEyes')}
        value={draft.fourEyes}
        onChange={(e) => setDraft({ ...draft, fourEyes: e.target.value as FourEyesRule })}
      >
        {rules.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('targetHours')}
        type="number"
        min={1}
        max={720}
        value={draft.targetHours}
        onChange={(e) => setDraft({ ...draft, targetHours: Number(e.target.value) })}
      />
      <Field
        label={t('leaseMinutes')}
        type="number"
        min={1}
        max={1440}
        value={draft.leaseMinutes}
        onChange={(e) => setDraft({ ...draft, leaseMinutes: Number(e.target.value) })}
      />
      {save.error && <ErrorNotice error={save.error.data} />}
      <div className="team-rules-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {t('save')}
        </Button>
        {unsaved && !save.isPending && <UnsavedNote />}
        {save.isSuccess && !unsaved && (
          <span role="status" className="muted">
            {t('saved')}
          </span>
        )}
      </div>
    </form>
  );
}
