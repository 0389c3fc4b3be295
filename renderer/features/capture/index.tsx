import { defineMessages, useT } from '../../i18n/index';

/** Entry of the Capture area (route convention: renderer/app/routes.tsx). The feature's own screen replaces this file. */
const messages = defineMessages({ en: { title: 'Capture' }, es: { title: 'Captura' } });

export default function CaptureArea() {
  const t = useT(messages);
  return <h1>{t('title')}</h1>;
}
