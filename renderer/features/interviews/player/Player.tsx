import { useRef } from 'react';
import type { VideoLink } from '../../../../common/ipc/interview';
import { keys, useOmniMutation } from '../../../api/index';
import { useBilingual, useFormat, useT } from '../../../i18n/index';
import { Button, ErrorNotice, Segmented } from '../../../ui/index';
import { messages } from '../messages';
import { clock } from './clock';
import { useLinkRenewal } from './useLinkRenewal';
import { SPEEDS, usePlayback, type Playback } from './usePlayback';
import { usePlayerShortcuts } from './usePlayerShortcuts';
import { useSnapshot } from './useSnapshot';

/** The interview's video: controls, keys, snapshots, and a link renewed under the analyst without losing their place. */
export function Player({
  interviewId,
  link,
  renewing,
  onRenew,
}: {
  interviewId: string;
  link: VideoLink;
  renewing: boolean;
  onRenew: () => void;
}) {
  const t = useT(messages);
  const f = useFormat();
  const pick = useBilingual();
  const video = useRef<HTMLVideoElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const playback = usePlayback(video);
  const renewal = useLinkRenewal({ video, link, renewing, onRenew, lastTime: playback.lastTime });
  const snapshot = useSnapshot(interviewId, video, playback.lastTime);
  const played = useOmniMutation(
    (api, positionSeconds: number) => api.interview.recordPlay({ interviewId, positionSeconds }),
    {
      invalidate: [keys.interview.audit(interviewId)],
    },
  );
  usePlayerShortcuts(playback);

  return (
    <div className="player" ref={box} aria-label={t('videoTitle')} role="group" data-testid="video-player">
      <video
        ref={video}
        src={link.url}
        preload="metadata"
        playsInline
        onLoadedMetadata={() => {
          const v = video.current;
          if (!v) return;
          playback.loaded(v);
          renewal.loaded(v);
        }}
        onDurationChange={(e) => playback.setDuration(e.currentTarget.duration)}
        onTimeUpdate={(e) => playback.moved(e.currentTarget.currentTime)}
        onPlay={(e) => {
          playback.setPlaying(true);
          if (!renewal.playedByItself()) played.mutate(e.currentTarget.currentTime);
        }}
        onPlaying={renewal.playingAgain}
        onPause={() => playback.setPlaying(false)}
        onError={renewal.failedToPlay}
        onClick={playback.toggle}
      />
      <Transport playback={playback} />
      <div className="player-controls player-options">
        <Segmented
          label={t('speed')}
          value={playback.speed}
          testId="video-speed"
          onChange={playback.playAt}
          options={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        />
        <div className="player-actions">
          <Button onClick={() => void box.current?.requestFullscreen?.()}>{t('fullScreen')}</Button>
          <Button onClick={() => void snapshot.take()} disabled={snapshot.save.isPending}>
            {t('snapshot')}
          </Button>
        </div>
      </div>
      <p className="small muted num" data-testid="video-expiry" aria-live="polite">
        {renewal.expired
          ? t('linkExpired')
          : t('linkExpires', { time: f.dateTime(renewal.expiresAt), left: f.duration(renewal.secondsLeft) })}
      </p>
      {renewal.renewedAt && (
        <p className="small" data-testid="video-renewed" role="status">
          {t('linkRenewed', { time: f.dateTime(renewal.renewedAt.at), pos: clock(renewal.renewedAt.position) })}
        </p>
      )}
      <p className="small muted">{t('videoKeys')}</p>
      {renewal.failed && (
        <p className="notice notice-danger" role="alert">
          {t('videoError')}
        </p>
      )}
      {snapshot.save.isSuccess && (
        <p className="small" role="status">
          {snapshot.save.data?.savedTo ? t('saved', { path: snapshot.save.data.savedTo }) : t('snapshotSaved')}
        </p>
      )}
      {snapshot.save.error && <ErrorNotice error={snapshot.save.error.data} />}
      {played.error && <p className="small muted">{pick(played.error.data.message)}</p>}
    </div>
  );
}

/**
 * Play, seek and step: the first row of controls. The buttons stay together on one line; the position bar is beside
 * them where the column has room, on its own line under them where it has not.
 */
function Transport({ playback }: { playback: Playback }) {
  const t = useT(messages);
  const { playing, time, duration, toggle, seekBy, seekTo, step } = playback;
  return (
    <div className="player-controls player-transport">
      <div className="player-steps">
        <Button onClick={toggle} aria-pressed={playing} data-testid="play-toggle">
          {playing ? t('pause') : t('play')}
        </Button>
        <Button onClick={() => seekBy(-5)} aria-label={t('back5')}>
          −5 s
        </Button>
        <Button onClick={() => step(-1)} aria-label={t('frameBack')}>
          ‹
        </Button>
        <Button onClick={() => step(1)} aria-label={t('frameForward')}>
          ›
        </Button>
        <Button onClick={() => seekBy(5)} aria-label={t('forward5')}>
          +5 s
        </Button>
      </div>
      <div className="player-position">
        <input
          type="range"
          className="player-seek"
          min={0}
          max={Number.isFinite(duration) && duration > 0 ? duration : 0}
          step={0.01}
          value={time}
          aria-label={t('seek')}
          aria-valuetext={`${clock(time)} / ${clock(duration)}`}
          onChange={(e) => seekTo(Number(e.target.value))}
        />
        <span className="mono num small player-time" data-testid="video-time">
          {clock(time)} / {clock(duration)}
        </span>
      </div>
    </div>
  );
}
