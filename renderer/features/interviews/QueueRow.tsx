import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RISK_UNASSESSED, type QueueEntry } from '../../../common/ipc/queue';
import type { ClaimView } from '../../../common/ipc/team';
import { useFormat, useT } from '../../i18n/index';
import { Button, IconDanger, IconInfo, IconMinus, IconWarning } from '../../ui/index';
import { bulkMessages } from './bulk-messages';
import { messages } from './messages';
import { LocalStateBadge, SessionStatusBadge, useEntryLabel, useLocalStateLabel, useRiskWord } from './shared';
import { HolderCell, useAgeText } from './team-queue';

/** One interview of the queue's table, measured as drawn (the table draws only the rows in sight). */
export function QueueRow({
  entry,
  index,
  current,
  checked,
  onCheck,
  measure,
  onSelect,
  waiting,
  holder,
  onRemove,
}: {
  entry: QueueEntry;
  index: number;
  current: boolean;
  /** Checked for a bulk action; a shift-click checks the rows between the last clicked and this one. */
  checked: boolean;
  onCheck: (interviewId: string, range: boolean) => void;
  measure: (row: HTMLTableRowElement | null) => void;
  onSelect: (index: number) => void;
  waiting: ReactNode;
  /** Who holds it, on a team database; undefined where nobody else can (no column). */
  holder: { claim: ClaimView | undefined } | undefined;
  onRemove: (interviewId: string) => void;
}) {
  const t = useT(messages);
  const tb = useT(bulkMessages);
  const f = useFormat();
  const stateLabel = useLocalStateLabel();
  const labelOf = useEntryLabel();
  const ageText = useAgeText();
  const label = labelOf(entry);
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      className={[current ? 'selected' : '', checked ? 'checked' : ''].join(' ').trim() || undefined}
      aria-current={current ? 'true' : undefined}
      data-testid="queue-row"
      onClick={() => onSelect(index)}
    >
      <td className="queue-check">
        <input
          type="checkbox"
          className="queue-checkbox"
          checked={checked}
          aria-label={tb('selectRow', { id: entry.interviewId })}
          // React's change of a checkbox is its click: the shift key rides on it (a range), Space does not.
          onChange={(e) => onCheck(entry.interviewId, (e.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </td>
      <td className="queue-id">
        <Link className="mono" to={`/interviews/${encodeURIComponent(entry.interviewId)}`} title={entry.interviewId}>
          {entry.interviewId}
        </Link>
        {!entry.hasSessionToken && (
          <span className="small queue-no-token" title={t('noSessionToken')}>
            <IconWarning /> {t('noTokenShort')}
          </span>
        )}
      </td>
      {/* Cut short to keep the row on one line; the whole label is its title and the workspace's header. */}
      <td className="queue-label small muted" title={label || undefined}>
        {label}
      </td>
      <td>
        <SessionStatusBadge status={entry.sessionStatus} />
      </td>
      <td>{entry.risk ? <RiskNote risk={entry.risk} /> : <RiskNotRead />}</td>
      <td className={entry.awaitingSecondReview ? 'queue-proposed-cell' : undefined}>
        <LocalStateBadge state={entry.localState} proposed={entry.awaitingSecondReview} />
        <span className="visually-hidden">{stateLabel(entry.localState, entry.awaitingSecondReview)}</span>
        {entry.awaitingSecondReview && <span className="small muted queue-proposed">{t('awaitingSecondReview')}</span>}
      </td>
      <td className="num">{waiting}</td>
      {holder && (
        <td>
          <HolderCell claim={holder.claim} />
        </td>
      )}
      <td className="num">
        {entry.lastOpenedAt ? (
          <span title={f.dateTime(entry.lastOpenedAt)}>
            {/* "0 min ago" read as a glitch: under a minute is "just now". */}
            {Date.now() - Date.parse(entry.lastOpenedAt) < 60_000
              ? t('openedJustNow')
              : t('openedAgo', { age: ageText(entry.lastOpenedAt) })}
          </span>
        ) : (
          <span className="muted">{t('never')}</span>
        )}
      </td>
      <td>
        <Button
          variant="link"
          aria-label={t('removeLabel', { id: entry.interviewId })}
          onClick={(e) => {
            e.stopPropagation();
            onRemove(entry.interviewId);
          }}
        >
          {t('remove')}
        </Button>
      </td>
    </tr>
  );
}

/** No reading on file yet: a dash, not an empty cell that could pass for "no risk". */
function RiskNotRead() {
  const t = useT(messages);
  return (
    <span className="small muted" title={t('riskNotRead')}>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{t('riskNotRead')}</span>
    </span>
  );
}

/**
 * The risk the interview's checks were last read with, in words and an icon (never colour alone); a level newer than
 * the spec as sent. "Not assessed" is short in the cell, its reason in the title (a long cell cut the ids at 1024 px).
 */
function RiskNote({ risk }: { risk: string }) {
  const t = useT(messages);
  const [first, ...rest] = useRiskWord()(risk).split(' ');
  const tone = risk === 'high' || risk === 'medium' || risk === 'low' || risk === RISK_UNASSESSED ? risk : 'other';
  const icon =
    tone === 'high' ? (
      <IconDanger />
    ) : tone === 'low' ? (
      <IconInfo />
    ) : tone === RISK_UNASSESSED ? (
      <IconMinus />
    ) : (
      <IconWarning />
    );
  return (
    <span
      className={`small queue-risk queue-risk-${tone}`}
      {...(tone === RISK_UNASSESSED ? { title: t('riskNoteUnassessedWhy') } : {})}
    >
      {/* The icon stays with the first word when a narrow column wraps the rest. */}
      <span className="nowrap">
        {icon}
        {first}
      </span>
      {rest.length > 0 && ` ${rest.join(' ')}`}
    </span>
  );
}
