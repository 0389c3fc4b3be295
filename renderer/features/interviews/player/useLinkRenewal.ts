import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { VideoLink } from '../../../../common/ipc/interview';

/** Renew a little before the link dies, so a range request never meets an expired URL. */
const RENEW_BEFORE_MS = 30_000;

/**
 * The video's pre-signed link, renewed before it expires and when playback fails on it (twice at most), with the
 * analyst's place and play state carried over to the new source.
 */
export function useLinkRenewal({
  video,
  link,
  renewing,
  onRenew,
  lastTime,
}: {
  video: RefObject<HTMLVideoElement | null>;
  link: VideoLink;
  renewing: boolean;
  onRenew: () => void;
  lastTime: RefObject<number>;
}) {
  const [now, setNow] = useState(() => Date.now());
  const [renewedAt, setRenewedAt] = useState<{ at: number; position: number } | null>(null);
  const [failed, setFailed] = useState(false);
  /** Where to continue after the source changes: position and whether it was playing. */
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  /** Set while playback continues by itself after a renewal: that play is not the analyst's, so it is not audited. */
  const resumingPlay = useRef(false);
  const renewals = useRef(0);
  const src = useRef(link.url);

  const renew = useCallback(() => {
    const v = video.current;
    if (resume.current || renewing) return;
    resume.current = { time: v?.currentTime || lastTime.current, playing: !!v && !v.paused };
    onRenew();
  }, [onRenew, renewing, video, lastTime]);

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
  }, [link.url, renewing, video, lastTime]);

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

  /** A source's metadata arrived: after a renewal, back to where the analyst was, playing if they were. */
  const loaded = (v: HTMLVideoElement) => {
    const r = resume.current;
    if (!r) return;
    resume.current = null;
    v.currentTime = r.time;
    setRenewedAt({ at: Date.now(), position: r.time });
    if (r.playing) {
      resumingPlay.current = true;
      void v.play().catch(() => {
        resumingPlay.current = false;
      });
    }
  };

  /** Whether this play is the one a renewal started (the analyst's own plays are audited; this one is not). */
  const playedByItself = () => {
    const itself = resumingPlay.current;
    resumingPlay.current = false;
    return itself;
  };

  const failedToPlay = () => {
    // A playback error is most often the pre-signed link dying under us: renew (twice at most) before giving up.
    if (renewals.current < 2) {
      renewals.current += 1;
      renew();
    } else setFailed(true);
  };

  const playingAgain = () => {
    renewals.current = 0;
    setFailed(false);
  };

  return {
    expiresAt,
    secondsLeft: Math.max(0, (expiresAt - now) / 1000),
    /** Read at render, as the line under the player always was: a renewal asked for and not yet loaded. */
    expired: renewing || resume.current !== null,
    renewedAt,
    failed,
    loaded,
    playedByItself,
    failedToPlay,
    playingAgain,
  };
}
