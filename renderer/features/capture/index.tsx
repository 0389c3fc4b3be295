import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useQueueList } from '../../api/queue';
import { useT } from '../../i18n/index';
import { AuthTool } from './AuthTool';
import { hasSessionToken, InterviewPicker } from './InterviewPicker';
import { messages } from './messages';
import { BackIdTool, SelfieTool } from './tools';
import { VideoTool } from './VideoTool';
import './capture.css';
import './explain.css';

type Tab = 'selfie' | 'backId' | 'auth' | 'video';
const TABS: Tab[] = ['selfie', 'backId', 'auth', 'video'];
const LABEL = { selfie: 'tabSelfie', backId: 'tabBackId', auth: 'tabAuth', video: 'tabVideo' } as const;

/** Capture on behalf of a person: selfie, back of second ID, face authentication and video import. */
export default function CaptureScreen() {
  const t = useT(messages);
  const id = useId();
  const [tab, setTab] = useState<Tab>('selfie');
  const [interviewId, setInterviewId] = useState('');
  const queue = useQueueList();
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({
    selfie: null,
    backId: null,
    auth: null,
    video: null,
  });
  const disabledReason = !interviewId
    ? t('reasonNoInterview')
    : !hasSessionToken(queue.data, interviewId)
      ? t('reasonNoToken')
      : null;

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  const onKey = (e: KeyboardEvent) => {
    const at = TABS.indexOf(tab);
    const next =
      e.key === 'ArrowRight'
        ? TABS[(at + 1) % TABS.length]
        : e.key === 'ArrowLeft'
          ? TABS[(at + TABS.length - 1) % TABS.length]
          : undefined;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="capture">
      <h1>{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      {tab !== 'auth' && (
        <section className="panel capture-interview">
          <InterviewPicker value={interviewId} onChange={setInterviewId} />
        </section>
      )}
      <div role="tablist" aria-label={t('tabsLabel')} className="capture-tabs" onKeyDown={onKey}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            className="capture-tab"
            onClick={() => setTab(name)}
          >
            {t(LABEL[name])}
          </button>
        ))}
      </div>
      {TABS.map((name) => (
        <section
          key={name}
          role="tabpanel"
          id={`${id}-panel-${name}`}
          aria-labelledby={`${id}-tab-${name}`}
          hidden={tab !== name}
          className="panel capture-panel"
        >
          {tab === name && name === 'selfie' && (
            <SelfieTool interviewId={interviewId} disabledReason={disabledReason} />
          )}
          {tab === name && name === 'backId' && (
            <BackIdTool interviewId={interviewId} disabledReason={disabledReason} />
          )}
          {tab === name && name === 'auth' && <AuthTool />}
          {tab === name && name === 'video' && <VideoTool interviewId={interviewId} disabledReason={disabledReason} />}
        </section>
      ))}
    </div>
  );
}
