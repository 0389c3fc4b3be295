import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CurpResultView } from '../../../../common/ipc/validation';
import type { AddCurpResponse } from '../../../../common/omni/validation';
import { keys } from '../../../../renderer/api/keys';
import { messages } from '../../../../renderer/features/validation/messages';
import { CurpResult } from '../../../../renderer/features/validation/SingleChecks';
import { LocaleProvider, type Locale } from '../../../../renderer/i18n/index';

const CURP = 'GODE561231HDFRRN09';

function result(response: AddCurpResponse, failure?: CurpResultView['failure']): CurpResultView {
  return {
    curp: CURP,
    valid: response.success && response.renapo_valid !== false && response.error == null,
    response,
    answer: { endpoint: 'addCurp', body: response, beyondSpec: [] },
    ...(failure ? { failure } : {}),
    validatedAt: '2026-11-27T18:00:00.000Z',
  };
}

const notFound = result(
  {
    success: false,
    result: 'La CURP no se encuentra en la base de datos de RENAPO.',
    renapo_valid: false,
    error: { tipoError: '01', codigoError: '06', message: 'La CURP no se encuentra en la base de datos de RENAPO.' },
  },
  {
    code: '01-06',
    group: 1,
    message: { en: 'This CURP is not in RENAPO’s records.', es: 'Esta CURP no está en los registros de RENAPO.' },
    advice: { en: 'Check the 18 characters with the person.', es: 'Revisa los 18 caracteres con la persona.' },
    retryable: false,
  },
);

function render(
  view: CurpResultView,
  { locale = 'en', technical = false }: { locale?: Locale; technical?: boolean } = {},
) {
  const client = new QueryClient();
  client.setQueryData(keys.settings.preferences(), {
    language: null,
    theme: 'system',
    afterDecision: 'stay',
    technicalDetails: technical,
  });
  const t = (key: keyof (typeof messages)['en'], params?: Record<string, string | number>) =>
    Object.entries(params ?? {}).reduce((text, [k, v]) => text.replace(`{${k}}`, String(v)), messages[locale][key]);
  return renderToString(
    createElement(QueryClientProvider, {
      client,
      children: createElement(LocaleProvider, {
        value: { locale, setLocale: () => undefined },
        children: createElement(CurpResult, { result: view, onRetry: () => undefined, retrying: false, t }),
      }),
    }),
  ).replaceAll('<!-- -->', '');
}

describe('a CURP result', () => {
  it('explained by the catalog: the explanation without the raw field table', () => {
    for (const locale of ['en', 'es'] as const) {
      const html = render(notFound, { locale });
      expect(html).toContain(notFound.failure!.message[locale]);
      expect(html).not.toContain('response-fields');
      expect(html).not.toContain('renapo_valid');
      expect(html).not.toContain('codigoError');
      expect(html).not.toContain('service-answer');
    }
  });

  it('confirmed: the confirmation without the raw field table', () => {
    const html = render(result({ success: true, result: 'CURP válida', renapo_valid: true }));
    expect(html).toContain('RENAPO confirms this CURP');
    expect(html).not.toContain('response-fields');
  });

  it('confirmed, with the service’s own sentence in view: it may say what the badge does not', () => {
    const html = render(result({ success: true, result: 'CURP válida', renapo_valid: true }));
    expect(html).toContain('The service said: “CURP válida”');
  });

  it('a success that does not say RENAPO confirmed it, or carries an error, keeps the table and no green badge (red team 23)', () => {
    const withdrawn = {
      success: true,
      result: 'CURP dada de baja por defunción (BD)',
      error: { codigoRespuesta: '02', descripcionRespuesta: 'CURP dada de baja por defunción' },
    };
    const html = render(result(withdrawn));
    expect(html).not.toContain('RENAPO confirms this CURP');
    expect(html).toContain('response-fields');
    expect(html).toContain('dada de baja por defunción');
    // No renapo_valid at all: the table says what was answered.
    expect(render(result({ success: true }))).toContain('response-fields');
  });

  it('with technical details on: the field table and the answer, as before', () => {
    const html = render(notFound, { technical: true });
    expect(html).toContain('response-fields');
    expect(html).toContain('renapo_valid');
    expect(html).toContain('data-testid="service-answer"');
  });

  it('not confirmed for no reason the app knows: the field table stays, the only account of the answer', () => {
    const html = render(result({ success: true, result: 'Sin datos', renapo_valid: false }));
    expect(html).toContain('The CURP was not confirmed');
    expect(html).toContain('response-fields');
  });

  it('names the provider’s reference beside the code, for support', () => {
    const provider = result(
      {
        success: false,
        result: 'internal error',
        error: { codigoRespuesta: '05', descripcionRespuesta: 'internal error', referencia: 'FOLIO-123' },
      },
      {
        code: 'PROVIDER_INTERNAL',
        message: { en: 'The provider failed.', es: 'El proveedor falló.' },
        advice: { en: 'Contact support.', es: 'Contacta a soporte.' },
        retryable: false,
      },
    );
    expect(render(provider)).toContain('Code PROVIDER_INTERNAL · Reference FOLIO-123');
    expect(render(provider, { locale: 'es' })).toContain('Código PROVIDER_INTERNAL · Referencia FOLIO-123');
  });
});
