import { useCallback, useEffect, useRef, useState } from 'react';
import type { VideoLink } from '../../../common/ipc/interview';
import { keys, useOmniMutation, useOmniQuery } from '../../api/index';
import { useShortcut } from '../../ui/shortcuts';
import { useBilingual, useFormat, useT } from '../../i18n/index';
import { Button, ErrorNotice, Panel, Segmented, ServiceAnswerView } from '../../ui/index';
import { messages } from './messages';
import { useEndedSessionText } from './session-ended';
import { followSaved, toBase64 } from './shared';

const SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];
/** Frame step assumes 30 fps: the container does not say, and 1/30 s never skips a frame of slower video. */
const FRAME = 1 / 30;
/** Renew a little before the link dies, so a range request never meets an expired URL. */
const RENEW_BEFORE_MS = 30_000;

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

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '0:00';
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(2).padStart(5, '0')}`;
}

function Player({
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
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);
  const [now, setNow] = useState(() => Date.now());
  const [renewedAt, setRenewedAt] = useState<{ at: number; position: number } | null>(null);
  const [failed, setFailed] = useState(false);
  /** Where to continue after the source changes: position and whether it was playing. */
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  const lastTime = useRef(0);
  /** Set while playback continues by itself after a renewal: that play is not the analyst's, so it is not audited. */
  const resumingPlay = useRef(false);
  const renewals = useRef(0);
  const src = useRef(link.url);
  const played = useOmniMutation(
    (api, positionSeconds: number) => api.interview.recordPlay({ interviewId, positionSeconds }),
    {
      invalidate: [keys.interview.audit(interviewId)],
    },
  );
  const save = useOmniMutation(
    (api, png: Uint8Array) =>
      api.interview.saveFile({
        interviewId,
        what: 'snapshot',
        suggestedName: `snapshot-${interviewId}-${clock(lastTime.current).replace(/[:.]/g, '-')}.png`,
        mimeType: 'image/png',
        dataBase64: toBase64(png),
      }),
    { invalidate: [keys.interview.audit(interviewId)], onSuccess: (saved) => followSaved(saved) },
  );

  const renew = useCallback(() => {
    const v = video.current;
    if (resume.current || renewing) return;
    resume.current = { time: v?.currentTime || lastTime.current, playing: !!v && !v.paused };
    onRenew();
  }, [onRenew, renewing]);

  // A new link (renewed): swap the source, then continue where the analyst was.
  useEffect(() => {
    const v = video.current;
    if (!v || src.current === link.url) {
      if (resume.current && !renewing && v) {
        // Same app URL (main renewed the remote link behind it): reload it in place.
        v.load();
      }
      return;
    }
    src.current = link.url;
    resume.current ??= { time: v.currentTime || lastTime.current, playing: !v.paused };
    v.src = link.url;
    v.load();
  }, [link.url, renewing]);

  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);

  const expiresAt = new Date(link.expiresAt).getTime();
  // Once per link: if the service's clock runs behind ours, a fresh link may already look expired here.
  const renewedOnExpiry = useRef<string | null>(null);
  useEffect(() => {
    if (now < expiresAt - RENEW_BEFORE_MS || renewedOnExpiry.current === link.url) return;
    renewedOnExpiry.current = link.url;
    renew();
  }, [now, expiresAt, renew, link.url]);

  const onLoadedMetadata = () => {
    const v = video.current;
    if (!v) return;
    setDuration(v.duration);
    v.playbackRate = speed;
    const r = resume.current;
    if (r) {
      resume.current = null;
      v.currentTime = r.time;
      setRenewedAt({ at: Date.now(), position: r.time });
      if (r.playing) {
        resumingPlay.current = true;
        void v.play().catch(() => {
          resumingPlay.current = false;
        });
      }
    }
  };

  const onError = () => {
    // A playback error is most often the pre-signed link dying under us: renew (twice at most) before giving up.
    if (renewals.current < 2) {
      renewals.current += 1;
      renew();
    } else setFailed(true);
  };

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (v.paused) void v.play().catch(() => undefined);
    else v.pause();
  };
  const seekBy = (delta: number) => {
    const v = video.current;
    if (!v) return;
    v.currentTime = Math.max(0, Math.min(v.duration || Infinity, v.currentTime + delta));
  };
  const step = (frames: number) => {
    video.current?.pause();
    seekBy(frames * FRAME);
  };
  const changeSpeed = (dir: number) => {
    const i = SPEEDS.indexOf(speed);
    const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 3 : i) + dir))] ?? 1;
    setSpeed(next);
    if (video.current) video.current.playbackRate = next;
  };
  const snapshot = async () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (blob) save.mutate(new Uint8Array(await blob.arrayBuffer()));
  };

  // Anywhere in the workspace, not only in the player: the analyst reads the checks while the video runs.
  useShortcut([
    {
      keys: 'Space',
      description: { en: messages.en.shortcutPlayPause, es: messages.es.shortcutPlayPause },
      run: toggle,
    },
    {
      keys: 'ArrowLeft',
      description: { en: messages.en.shortcutBack5, es: messages.es.shortcutBack5 },
      run: () => seekBy(-5),
    },
    {
      keys: 'ArrowRight',
      description: { en: messages.en.shortcutForward5, es: messages.es.shortcutForward5 },
      run: () => seekBy(5),
    },
    {
      keys: ',',
      description: { en: messages.en.shortcutFrameBack, es: messages.es.shortcutFrameBack },
      run: () => step(-1),
    },
    {
      keys: '.',
      description: { en: messages.en.shortcutFrameForward, es: messages.es.shortcutFrameForward },
      run: () => step(1),
    },
    {
      keys: '[',
      description: { en: messages.en.shortcutSlower, es: messages.es.shortcutSlower },
      run: () => changeSpeed(-1),
    },
    {
      keys: ']',
      description: { en: messages.en.shortcutFaster, es: messages.es.shortcutFaster },
      run: () => changeSpeed(1),
    },
  ]);

  const left = Math.max(0, (expiresAt - now) / 1000);
  return (
    <div className="player" ref={box} aria-label={t('videoTitle')} role="group" data-testid="video-player">
      <video
        ref={video}
        src={link.url}
        preload="metadata"
        playsInline
        onLoadedMetadata={onLoadedMetadata}
        onDurationChange={(e) => setDuration(e.currentTarget.duration)}
        onTimeUpdate={(e) => {
          lastTime.current = e.currentTarget.currentTime;
          setTime(e.currentTarget.currentTime);
        }}
        onPlay={(e) => {
          setPlaying(true);
          if (resumingPlay.current) resumingPlay.current = false;
          else played.mutate(e.currentTarget.currentTime);
        }}
        onPlaying={() => {
          renewals.current = 0;
          setFailed(false);
        }}
        onPause={() => setPlaying(false)}
        onError={onError}
        onClick={toggle}
      />
      <div className="player-controls">
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
        <input
          type="range"
          className="player-seek"
          min={0}
          max={Number.isFinite(duration) && duration > 0 ? duration : 0}
          step={0.01}
          value={time}
          aria-label={t('seek')}
          aria-valuetext={`${clock(time)} / ${clock(duration)}`}
          onChange={(e) => {
            if (video.current) video.current.currentTime = Number(e.target.value);
          }}
        />
        <span className="mono num small" data-testid="video-time">
          {clock(time)} / {clock(duration)}
        </span>
      </div>
      <div className="player-controls">
        <Segmented
          label={t('speed')}
          value={speed}
          testId="video-speed"
          onChange={(next) => {
            setSpeed(next);
            if (video.current) video.current.playbackRate = next;
          }}
          options={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        />
        <Button onClick={() => void box.current?.requestFullscreen?.()}>{t('fullScreen')}</Button>
        <Button onClick={() => void snapshot()} disabled={save.isPending}>
          {t('snapshot')}
        </Button>
      </div>
      <p className="small muted num" data-testid="video-expiry" aria-live="polite">
        {renewing || resume.current
          ? t('linkExpired')
          : t('linkExpires', { time: f.dateTime(expiresAt), left: f.duration(left) })}
      </p>
      {renewedAt && (
        <p className="small" data-testid="video-renewed" role="status">
          {t('linkRenewed', { time: f.dateTime(renewedAt.at), pos: clock(renewedAt.position) })}
        </p>
      )}
      <p className="small muted">{t('videoKeys')}</p>
      {failed && (
        <p className="notice notice-danger" role="alert">
          {t('videoError')}
        </p>
      )}
      {save.isSuccess && (
        <p className="small" role="status">
          {save.data?.savedTo ? t('saved', { path: save.data.savedTo }) : t('snapshotSaved')}
        </p>
      )}
      {save.error && <ErrorNotice error={save.error.data} />}
      {played.error && <p className="small muted">{pick(played.error.data.message)}</p>}
    </div>
  );
}
