import { keys, useOmniQuery } from '../../api/index';
import { useT } from '../../i18n/index';
import { Panel, ServiceAnswerView } from '../../ui/index';
import { messages } from './messages';
import { Player } from './player/Player';
import { useEndedSessionText } from './session-ended';

export function VideoPanel({ interviewId }: { interviewId: string }) {
  const t = useT(messages);
  const q = useOmniQuery(keys.interview.video(interviewId), (api) => api.interview.video({ interviewId }), {
    staleTime: Infinity,
  });
  const ended = useEndedSessionText(interviewId);
  const said = q.data && 'unavailable' in q.data.data ? q.data.data.unavailable : '';
  return (
    <Panel
      title={t('videoTitle')}
      query={q}
      isEmpty={(d) => 'unavailable' in d.data}
      empty={<VideoUnavailable said={said} />}
      because={ended && <VideoUnavailable said={said} ended={ended} />}
      footer={(d) => ('answer' in d.data ? <ServiceAnswerView answer={d.data.answer} /> : null)}
    >
      {(d) =>
        'url' in d.data ? (
          <Player interviewId={interviewId} link={d.data} renewing={q.isFetching} onRenew={() => void q.refetch()} />
        ) : null
      }
    </Panel>
  );
}

function VideoUnavailable({ said, ended }: { said: string; ended?: string }) {
  const t = useT(messages);
  return (
    <>
      {ended ?? t('videoNone')}
      {said && <span className="small"> ({t('serviceSaid', { text: said })})</span>}
    </>
  );
}
