import { defineMessages, useT } from '../../i18n/index';

/** Entry of the Interviews area (route convention: renderer/app/routes.tsx). The feature's own screen replaces this file. */
const messages = defineMessages({ en: { title: 'Interviews' }, es: { title: 'Entrevistas' } });

export default function InterviewsArea() {
  const t = useT(messages);
  return <h1>{t('title')}</h1>;
}
