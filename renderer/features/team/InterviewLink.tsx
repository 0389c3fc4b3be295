import { Link } from 'react-router-dom';

/** An interview's id, opening its workspace. */
export function InterviewLink({ id }: { id: string }) {
  return (
    <Link className="mono" to={`/interviews/${encodeURIComponent(id)}`}>
      {id}
    </Link>
  );
}
