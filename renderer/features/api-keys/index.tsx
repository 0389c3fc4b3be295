import { defineMessages, useT } from '../../i18n/index';

/** Entry of the API keys area (route convention: renderer/app/routes.tsx). The feature's own screen replaces this file. */
const messages = defineMessages({ en: { title: 'API keys' }, es: { title: 'Claves de API' } });

export default function ApiKeysArea() {
  const t = useT(messages);
  return <h1>{t('title')}</h1>;
}
