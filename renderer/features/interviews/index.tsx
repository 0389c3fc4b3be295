import { useParams } from 'react-router-dom';
import { QueueScreen } from './Queue';
import { Workspace } from './Workspace';
import './interviews.css';

/**
 * `/interviews`: the review queue; `/interviews/:id`: one interview's workspace. The workspace's calls were already
 * started by the navigation (the route's `prefetch` in app/routes.tsx).
 */
export default function InterviewsArea() {
  const { id } = useParams();
  return id ? <Workspace key={id} interviewId={id} /> : <QueueScreen />;
}
