/**
 * Answers of calls started together are shown together: a screen that asks for six things at once (an interview's
 * panels) gets them in one render, not in six renders a few milliseconds apart, each followed by a layout of the
 * whole screen. Those in-between layouts do not show anything useful, and while the page is busy with them it
 * cannot take the last answer. React does the same with Suspense: it throttles reveals so content lands in batches.
 *
 * An answer is held only while others of its group are still on the way, and never more than HOLD_LIMIT_MS: a slow
 * call does not keep the fast ones off the screen.
 */
export const HOLD_LIMIT_MS = 100;

interface Group {
  pending: number;
  held: (() => void)[];
  timer?: ReturnType<typeof setTimeout>;
}

/** The group of the current tick: calls started in the same tick join it. */
let forming: Group | undefined;

function release(group: Group) {
  clearTimeout(group.timer);
  group.timer = undefined;
  const held = group.held;
  group.held = [];
  for (const settle of held) settle();
}

export function revealTogether<T>(call: Promise<T>): Promise<T> {
  let group = forming;
  if (!group) {
    const started: Group = { pending: 0, held: [] };
    group = forming = started;
    queueMicrotask(() => {
      if (forming === started) forming = undefined;
    });
  }
  const mine = group;
  mine.pending++;
  return new Promise<T>((resolve, reject) => {
    const settled = (settle: () => void) => {
      mine.pending--;
      mine.held.push(settle);
      if (mine.pending === 0) release(mine);
      else mine.timer ??= setTimeout(() => release(mine), HOLD_LIMIT_MS);
    };
    call.then(
      (value) => settled(() => resolve(value)),
      (error: unknown) => settled(() => reject(error)),
    );
  });
}

/**
 * ...and rendered together. React Query tells the screen of each query's new data in a timer of its own: the answers
 * of an interview, released at once, still made nine timers, each a render and a commit of the workspace waiting its
 * turn in the timer queue. This scheduler (for notifyManager.setScheduler) runs every notification made in one task
 * in a single timer, so React renders them in one pass.
 */
export function oneTimerPerTask(
  setTimer: (run: () => void) => void = (run) => setTimeout(run, 0),
): (notify: () => void) => void {
  let queued: (() => void)[] = [];
  return (notify) => {
    queued.push(notify);
    if (queued.length > 1) return;
    setTimer(() => {
      const run = queued;
      queued = [];
      for (const fn of run) {
        try {
          fn();
        } catch (error) {
          // As with a timer each: one failing notification does not keep the others from their screens.
          setTimer(() => {
            throw error;
          });
        }
      }
    });
  };
}
