/**
 * Test page for the UI kit's long-task notifications (shell-long-task.spec.ts): one ProgressBar driven by buttons,
 * so the spec controls when work starts and how it ends. Language from `?lang=es`.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LocaleProvider, type Locale } from '../../../renderer/i18n/index';
import { Button, ProgressBar, type TaskOutcome } from '../../../renderer/ui/index';
import '../../../renderer/ui/theme.css';

const locale: Locale = new URLSearchParams(location.search).get('lang') === 'es' ? 'es' : 'en';
document.documentElement.lang = locale === 'es' ? 'es-MX' : 'en';

function Harness() {
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<TaskOutcome | undefined>();
  const startedAt = useState(() => Date.now() - 4000)[0];
  return (
    <main style={{ padding: '1rem', maxWidth: 640 }}>
      <Button onClick={() => setRunning(true)}>start</Button>
      <Button
        onClick={() => {
          setRunning(false);
          setOutcome(undefined);
        }}
      >
        remove
      </Button>
      <Button onClick={() => setOutcome('done')}>done</Button>
      <Button onClick={() => setOutcome('failed')}>failed</Button>
      <Button onClick={() => setOutcome('cancelled')}>cancelled</Button>
      {running && (
        <ProgressBar
          label={locale === 'es' ? 'Subiendo video' : 'Uploading video'}
          task={locale === 'es' ? 'Importación de video' : 'Video import'}
          done={outcome === 'done' ? 8_000_000 : 3_000_000}
          total={8_000_000}
          startedAt={startedAt}
          onCancel={() => setOutcome('cancelled')}
          {...(outcome ? { outcome } : {})}
        />
      )}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <LocaleProvider value={{ locale, setLocale: () => undefined }}>
    <Harness />
  </LocaleProvider>,
);
