import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { EnvironmentView } from '../../common/ipc/settings';
import { keys, readAgain, useOmniQuery } from '../api/index';
import { omni } from '../api/omni';
import { common } from '../i18n/common';
import { useBilingual, useFormat, useT } from '../i18n/index';
import { Button, Dialog, environmentKindWord, ErrorNotice } from '../ui/index';
import { areas } from './routes';
import { useShortcut, useShortcutList } from '../ui/shortcuts';
import { useTeamChanges } from '../api/team-changes';

/** The frame: environment bar on top (always visible), left rail, the active area. */
export function Layout() {
  const t = useT(common);
  const navigate = useNavigate();
  const [sheetOpen, setSheetOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // The screen the app opened on keeps the browser's own start; every later screen change resets (back to it too).
  const firstPath = useRef(pathname);
  const navigated = useRef(false);
  if (pathname !== firstPath.current) navigated.current = true;
  useTeamChanges();

  // A link from the OS (omni-reviewer://interview/<id>) waits in main until the window asks: at start and on focus.
  useEffect(() => {
    const take = () =>
      void omni()
        .app.takeDeepLink({})
        .then(
          (link) =>
            link && navigate(`/interviews/${encodeURIComponent(link.interviewId)}`, { state: { linkOpened: link } }),
        )
        .catch(() => undefined);
    take();
    window.addEventListener('focus', take);
    return () => window.removeEventListener('focus', take);
  }, [navigate]);

  useShortcut([
    ...areas.map((area) => ({
      keys: `g ${area.shortcut}`,
      description: { en: common.en[area.shortcutLabelKey], es: common.es[area.shortcutLabelKey] },
      run: () => navigate(area.path),
    })),
    {
      keys: '?',
      description: { en: common.en.shortcutSheet, es: common.es.shortcutSheet },
      run: () => setSheetOpen(true),
    },
  ]);

  return (
    <div className="frame">
      {/* The hash router owns the fragment: following "#main" would navigate away, so the link moves focus itself. */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t('skipToContent')}
      </a>
      <EnvironmentBar />
      <SetAsideNotice />
      <RecordAwayBanner />
      <div className="frame-body">
        <nav className="rail" aria-label={t('navLabel')}>
          <ul>
            {areas.map((area) => (
              <li key={area.path}>
                <NavLink to={area.path} className={({ isActive }) => (isActive ? 'rail-link active' : 'rail-link')}>
                  <span>{t(area.labelKey)}</span>
                  <kbd aria-hidden="true">g {area.shortcut}</kbd>
                </NavLink>
              </li>
            ))}
          </ul>
          <p className="rail-hint small muted">{t('shortcutsHint')}</p>
        </nav>
        <main id="main" ref={mainRef} className="content" tabIndex={-1}>
          <Outlet />
          {/* Keyed by path: it mounts with each new screen (an area still loading its code shows its own placeholder). */}
          {navigated.current && <NewScreenStartsAtTop key={pathname} mainRef={mainRef} />}
        </main>
      </div>
      <ShortcutSheet open={sheetOpen} onClose={() => setSheetOpen(false)} />
    </div>
  );
}

/**
 * A new screen (another path; a different query on the same path is the same screen) starts at its top, and focus
 * that was left on the rail, on the page body or on a control the old screen took with it moves to the content, so
 * the next Tab starts there and a screen reader announces it. Focus a screen placed itself inside the content stays.
 */
function NewScreenStartsAtTop({ mainRef }: { mainRef: RefObject<HTMLElement | null> }) {
  useLayoutEffect(() => {
    const main = mainRef.current;
    if (!main) return;
    main.scrollTop = 0;
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected || !main.contains(focused))
      main.focus({ preventScroll: true });
  }, [mainRef]);
  return null;
}

function EnvironmentBar() {
  const t = useT(common);
  const envs = useOmniQuery(keys.settings.environments(), (api) => api.settings.environments({}));
  let content: ReactNode;
  let kind: EnvironmentView['kind'] | 'unknown' = 'unknown';
  if (envs.error) {
    content = <span>{t('environment')}: ?</span>;
  } else if (!envs.data) {
    content = <span>{t('loading')}</span>;
  } else {
    const active = envs.data.environments.find((e) => e.id === envs.data.activeId);
    kind = active?.kind ?? 'unknown';
    const kindLabel = kind === 'unknown' ? t('envCustom') : environmentKindWord(kind, t);
    const note =
      kind === 'demo' ? t('envDemoNote') : kind === 'production' ? t('envProductionNote') : t('envCustomNote');
    content = (
      <>
        <span className="env-kind" data-testid="active-environment">
          {kindLabel}
        </span>
        {active?.named && <span className="env-name">{active.name}</span>}
        <span className="env-note">{note}</span>
      </>
    );
  }
  return (
    <header className={`env-bar env-${kind}`} role="banner">
      <span className="app-name">{t('appName')}</span>
      <span className="env-label" aria-label={t('environment')}>
        {content}
      </span>
    </header>
  );
}

const SET_ASIDE_WORDS = {
  settings: 'settingsSetAside',
  queue: 'queueSetAside',
  drafts: 'draftsSetAside',
  decisions: 'decisionsSetAside',
} as const;

/**
 * While the team database cannot be reached: what still works, that nothing typed is lost, and how many changes wait
 * to be saved; when it is back, says the waiting changes went through and reloads what had failed meanwhile.
 */
function RecordAwayBanner() {
  const t = useT(common);
  const format = useFormat();
  const queryClient = useQueryClient();
  const link = useOmniQuery(keys.app.recordLink(), (api) => api.app.recordLink({}), {
    // Only a team database can go away; the embedded record is asked once.
    refetchInterval: (query) => (query.state.data?.engine === 'team' ? RECORD_LINK_EVERY_MS : false),
    refetchIntervalInBackground: true,
  });
  const away = link.data?.away === true;
  const [backAt, setBackAt] = useState<number | null>(null);
  const wasAway = useRef(false);
  useEffect(() => {
    if (away) wasAway.current = true;
    else if (wasAway.current && link.data?.pendingWrites === 0) {
      wasAway.current = false;
      setBackAt(Date.now());
      void readAgain(queryClient, {});
    }
  }, [away, link.data?.pendingWrites, queryClient]);
  useEffect(() => {
    if (backAt === null) return;
    const hide = setTimeout(() => setBackAt(null), BACK_NOTICE_MS);
    return () => clearTimeout(hide);
  }, [backAt]);

  // Never hidden once seen: the trail's history no longer extends what this app verified before.
  const trail = link.data?.trail;
  const trailAlarm = trail && (
    <div className="startup-notice trail-alarm" role="alert" data-testid="trail-alarm">
      <p>
        <strong>{t(trail.rewritten ? 'trailRewritten' : 'trailBroken', { n: format.number(trail.brokenAt) })}</strong>{' '}
        {t('trailAlarmNext')}
      </p>
    </div>
  );
  if (trailAlarm && !link.data?.away) return trailAlarm;
  if (link.data?.away)
    return (
      <div className="startup-notice record-away" role="alert" data-testid="record-away">
        <div>
          <p>
            <strong>{t('recordAway', { since: format.dateTime(link.data.since) })}</strong> {t('recordAwayKeepWorking')}
          </p>
          <p>
            {link.data.pendingWrites > 0
              ? t(link.data.pendingWrites === 1 ? 'recordAwayWaitingOne' : 'recordAwayWaiting', {
                  n: format.number(link.data.pendingWrites),
                })
              : t('recordAwayNothingWaits')}
          </p>
          {link.data.reason && <p className="small muted mono">{link.data.reason}</p>}
        </div>
        {trailAlarm}
      </div>
    );
  if (backAt !== null)
    return (
      <div className="startup-notice record-back" role="status" data-testid="record-back">
        <p>{t('recordBack')}</p>
      </div>
    );
  return null;
}
const RECORD_LINK_EVERY_MS = 2_000;
const BACK_NOTICE_MS = 8_000;

/** Said once per start, above every screen: a store file was unreadable, what that means, and where it was kept. */
function SetAsideNotice() {
  const t = useT(common);
  const info = useOmniQuery(keys.app.info(), (api) => api.app.info({}), { staleTime: Infinity });
  const [dismissed, setDismissed] = useState(false);
  const setAside = info.data?.setAside ?? [];
  if (setAside.length === 0 || dismissed) return null;
  return (
    <div className="startup-notice" role="alert">
      <div>
        {setAside.map(({ kind, path }) => (
          <p key={kind}>
            {t(SET_ASIDE_WORDS[kind])} {t('setAsideKept')}{' '}
            <code className="mono" data-testid={`${kind}-set-aside`}>
              {path}
            </code>
          </p>
        ))}
        <p>{t(setAside.length > 1 ? 'setAsideAdviceMany' : 'setAsideAdvice')}</p>
      </div>
      <Button onClick={() => setDismissed(true)}>{t('dismiss')}</Button>
    </div>
  );
}

function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT(common);
  return (
    <Dialog open={open} onClose={onClose} title={t('shortcuts')}>
      {/* Only while open: screens register their keys as they mount, and a closed sheet need not follow. */}
      {open && <ShortcutTable />}
    </Dialog>
  );
}

/** Named keys as printed on the keyboard. */
const KEY_SIGNS: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };

function ShortcutTable() {
  const t = useT(common);
  const pick = useBilingual();
  const list = useShortcutList();
  return (
    <table className="table">
      <tbody>
        {list.map((s) => (
          <tr key={s.keys}>
            <td>
              {s.keys.split(' ').map((k, i) => (
                <span key={i}>
                  {i > 0 && ` ${t('then')} `}
                  <kbd>{k === 'Space' ? t('keySpace') : (KEY_SIGNS[k] ?? k)}</kbd>
                </span>
              ))}
            </td>
            <td>{pick(s.description)}</td>
          </tr>
        ))}
        <tr key="esc">
          <td>
            <kbd>Esc</kbd>
          </td>
          <td>{t('shortcutEsc')}</td>
        </tr>
        {/* Keys of a text field, not of the screen: always listed, since they work wherever such a field is. */}
        <tr key="ctrl-enter">
          <td>
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
          </td>
          <td>{t('shortcutCtrlEnter')}</td>
        </tr>
        <tr key="alt-arrows">
          <td>
            <kbd>Alt</kbd>+<kbd>↓</kbd> <kbd>Alt</kbd>+<kbd>↑</kbd>
          </td>
          <td>{t('shortcutAltArrows')}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** Shown when an area's code fails to load or throws while rendering. */
export function RouteError() {
  return (
    <ErrorNotice
      error={{
        code: 'SCREEN_LOAD',
        message: { en: common.en.screenFailed, es: common.es.screenFailed },
        advice: { en: common.en.screenFailedAdvice, es: common.es.screenFailedAdvice },
      }}
      onRetry={() => window.location.reload()}
    />
  );
}
