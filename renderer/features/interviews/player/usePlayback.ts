import { type RefObject, useRef, useState } from 'react';

export const SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2];
/** Frame step assumes 30 fps: the container does not say, and 1/30 s never skips a frame of slower video. */
const FRAME = 1 / 30;

/** The video element's state as the controls show it, and the moves the controls and keys make on it. */
export function usePlayback(video: RefObject<HTMLVideoElement | null>) {
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);
  /** The last position the element reported, for when the element cannot say (a source being swapped). */
  const lastTime = useRef(0);

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
  const seekTo = (position: number) => {
    if (video.current) video.current.currentTime = position;
  };
  const step = (frames: number) => {
    video.current?.pause();
    seekBy(frames * FRAME);
  };
  const playAt = (next: number) => {
    setSpeed(next);
    if (video.current) video.current.playbackRate = next;
  };
  const changeSpeed = (dir: number) => {
    const i = SPEEDS.indexOf(speed);
    playAt(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 3 : i) + dir))] ?? 1);
  };

  /** A source's metadata arrived: its length, and the speed the analyst chose, which a new source forgets. */
  const loaded = (v: HTMLVideoElement) => {
    setDuration(v.duration);
    v.playbackRate = speed;
  };
  const moved = (position: number) => {
    lastTime.current = position;
    setTime(position);
  };

  return {
    playing,
    setPlaying,
    time,
    duration,
    setDuration,
    speed,
    lastTime,
    toggle,
    seekBy,
    seekTo,
    step,
    playAt,
    changeSpeed,
    loaded,
    moved,
  };
}

export type Playback = ReturnType<typeof usePlayback>;
