import { defineMessages, useT } from '../../i18n/index';

/** Entry of the Validation area (route convention: renderer/app/routes.tsx). The feature's own screen replaces this file. */
const messages = defineMessages({ en: { title: 'Validation' }, es: { title: 'Validación' } });

export default function ValidationArea() {
  const t = useT(messages);
  return <h1>{t('title')}</h1>;
}
