/** The UI kit: import from 'renderer/ui'. Styles live in theme.css (variables only, light and dark). */
export { Badge, type BadgeTone } from './Badge';
export { Button, type ButtonVariant } from './Button';
export { Dialog } from './Dialog';
export { Field, SelectField, TextAreaField } from './Field';
export { FileField, type ChosenFile } from './FileField';
export {
  fieldsSayIt,
  issueAt,
  issueReason,
  readTextFile,
  schemaReason,
  textFileProblemWords,
  type TextFileProblem,
  type TextFileRead,
} from './input-checks';
export {
  ErrorNotice,
  Panel,
  PanelFailuresContext,
  retryAfterMs,
  retryCanHelp,
  Skeleton,
  useRetryCountdown,
  type PanelFailures,
  type PanelQuery,
} from './Panel';
export { environmentKindWord, useEnvironmentName } from './environment-name';
export { useEnvironmentScope, useKeptState } from './kept-state';
export { ExternalLink } from './ExternalLink';
export { NotInSpec, UnreadFields } from './NotInSpec';
export { BeyondSpec, RawAnswer, ServiceAnswerView } from './ServiceAnswer';
export { ProgressBar } from './ProgressBar';
export { askToNotifyOnce, useTaskNotifier, type TaskOutcome } from './long-task';
export { Segmented, type SegmentedOption } from './Segmented';
export { SeverityBadge } from './SeverityBadge';
export * from './icons';
