import { useEnvironmentScope, useKeptState } from '../../ui/index';
import { useT } from '../../i18n/index';
import { BatchTool } from './BatchTool';
import { CurpTool, RfcTool } from './SingleChecks';
import { messages } from './messages';
import './validation.css';

/** Validation area: RFC and CURP one at a time (checked locally as typed, then by the service) and in batches. */
export default function ValidationScreen() {
  const t = useT(messages);
  // One interview for the CURP check and the CURP batch: both send its session token. Kept with the CURP typed until
  // the service answers the check (interviews are the environment's).
  const [interviewId, setInterviewId, forgetInterview] = useKeptState(
    `validation.interview.${useEnvironmentScope()}`,
    '',
  );
  return (
    <div className="validation">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="validation-grid">
        <RfcTool />
        <CurpTool interviewId={interviewId} onInterviewChange={setInterviewId} onChecked={() => forgetInterview()} />
      </div>
      <BatchTool interviewId={interviewId} />
    </div>
  );
}
