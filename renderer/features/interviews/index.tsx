import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { prefetchInterview } from './prefetch';
import { QueueScreen } from './Queue';
import { Workspace } from './Workspace';
import './interviews.css';

/** `/interviews`: the review queue; `/interviews/:id`: one interview's workspace. */
export default function InterviewsArea() {
  const { id } = useParams();
  const client = useQueryClient();
  if (id) prefetchInterview(client, id);
  return id ? <Workspace key={id} interviewId={id} /> : <QueueScreen />;
}
