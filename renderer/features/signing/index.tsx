import { defineMessages, useT } from '../../i18n/index';

/** Entry of the Signing area (route convention: renderer/app/routes.tsx). The feature's own screen replaces this file. */
const messages = defineMessages({ en: { title: 'Signing' }, es: { title: 'Firma' } });

export default function SigningArea() {
  const t = useT(messages);
  return <h1>{t('title')}</h1>;
}
