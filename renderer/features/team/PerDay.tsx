import type { TeamOverviewView } from '../../../common/ipc/team';
import { useFormat, useT } from '../../i18n/index';
import { messages } from './messages';

/** Decisions per day and reviewer, final beside proposed. */
export function PerDay({ rows }: { rows: TeamOverviewView['decisionsByDay'] }) {
  const t = useT(messages);
  const f = useFormat();
  // One row per day and reviewer, final (final and confirmed) beside proposed.
  const merged = new Map<string, { day: string; reviewer: string; final: number; proposed: number }>();
  for (const r of rows) {
    const key = `${r.day} ${r.reviewer}`;
    const row = merged.get(key) ?? { day: r.day, reviewer: r.reviewer, final: 0, proposed: 0 };
    if (r.status === 'proposed') row.proposed += r.count;
    else row.final += r.count;
    merged.set(key, row);
  }
  return (
    <table className="table" data-testid="team-per-day">
      <thead>
        <tr>
          <th scope="col">{t('colDay')}</th>
          <th scope="col">{t('colReviewer')}</th>
          <th scope="col" className="num">
            {t('colFinal')}
          </th>
          <th scope="col" className="num">
            {t('colProposed')}
          </th>
        </tr>
      </thead>
      <tbody>
        {[...merged.values()].map((r) => (
          <tr key={`${r.day} ${r.reviewer}`}>
            <td>{r.day}</td>
            <td className="mono">{r.reviewer}</td>
            <td className="num">{f.number(r.final)}</td>
            <td className="num">{f.number(r.proposed)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
