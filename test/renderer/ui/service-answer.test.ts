import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PreferencesView } from '../../../common/ipc/settings';
import type { ServiceAnswer } from '../../../common/views';
import { keys } from '../../../renderer/api/keys';
import { LocaleProvider, type Locale } from '../../../renderer/i18n/index';
import { ServiceAnswerView } from '../../../renderer/ui/ServiceAnswer';
import { NotInSpec, UnreadFields } from '../../../renderer/ui/NotInSpec';
import { UNREAD_FIELDS } from '../../../common/omni/common';

const preferences = (technicalDetails: boolean | undefined): PreferencesView =>
  ({ language: null, theme: 'system', afterDecision: 'stay', technicalDetails }) as PreferencesView;

/** `technical`: the stored preference; undefined as main answers before it has one (an older main). */
function render(element: ReactElement, { locale = 'en', technical }: { locale?: Locale; technical?: boolean } = {}) {
  const client = new QueryClient();
  client.setQueryData(keys.settings.preferences(), preferences(technical));
  // React's markers between text pieces say nothing about what a reader sees.
  return renderToString(
    createElement(QueryClientProvider, {
      client,
      children: createElement(LocaleProvider, { value: { locale, setLocale: () => undefined }, children: element }),
    }),
  ).replaceAll('<!-- -->', '');
}

const answer: ServiceAnswer = {
  endpoint: 'getRawIdvResults',
  body: { checkResults: [{ engine: 'idv-core-7.4' }], traceId: 'abc', fraudRisk: { riskModelRegion: 'mx-central-2' } },
  beyondSpec: [
    { path: 'checkResults.0.engine', value: 'idv-core-7.4' },
    { path: 'checkResults.1.engine', value: 'idv-core-7.4' },
    { path: 'traceId', value: 'abc' },
    { path: 'fraudRisk.riskModelRegion', value: 'mx-central-2' },
  ],
};

const view = (props: Partial<Parameters<typeof ServiceAnswerView>[0]> = {}) =>
  createElement(ServiceAnswerView, { answer, ...props });

describe('what a panel shows of the service answer', () => {
  it('off by default: no raw answer, no field names, one sentence counting what is not shown', () => {
    for (const technical of [undefined, false]) {
      const html = render(view({ except: ['fraudRisk'] }), { technical });
      expect(html).not.toContain('service-answer');
      expect(html).not.toContain('data-testid="beyond-spec"');
      expect(html).not.toContain('getRawIdvResults');
      expect(html).not.toContain('checkResults');
      expect(html).not.toContain('traceId');
      expect(html).toContain('data-testid="beyond-spec-hidden"');
      expect(html).toContain(
        'The service sent 2 more details, not shown here (Settings → Preferences → Show technical details).',
      );
    }
  });

  it('off: one detail reads in the singular, in either language; none says nothing', () => {
    expect(render(view({ part: 'fraudRisk' }))).toContain('The service sent 1 more detail, not shown here (');
    expect(render(view({ part: 'fraudRisk' }), { locale: 'es' })).toContain(
      'El servicio envió 1 dato más, que no se muestra aquí (Configuración → Preferencias → Mostrar detalles técnicos).',
    );
    expect(render(view({ answer: { ...answer, beyondSpec: [] } }))).toBe('');
  });

  it('on: the fields beyond the spec in view, and the answer under "Technical details" with its call inside', () => {
    const html = render(view({ part: 'fraudRisk' }), { technical: true });
    expect(html).toContain('data-testid="beyond-spec"');
    expect(html).toContain('fraudRisk.riskModelRegion');
    expect(html).toContain('data-testid="service-answer"');
    expect(html).not.toContain('beyond-spec-hidden');
    const summary = /<summary[^>]*>(.*?)<\/summary>/.exec(html)?.[1];
    expect(summary).toBe('Technical details');
    expect(render(view(), { technical: true, locale: 'es' })).toMatch(/<summary[^>]*>Detalles técnicos<\/summary>/);
  });

  it('neither lists nor counts the fields the screen already shows in its own way', () => {
    const list: ServiceAnswer = {
      endpoint: 'listApiKeys',
      body: [],
      beyondSpec: [
        { path: '0.organizationId', value: 'org-1' },
        { path: '1.organizationId', value: 'org-2' },
        { path: '0.meta.region', value: 'mx' },
        { path: '0.createdBy', value: 'admin@demo.mx' },
      ],
    };
    const shown = ['[].organizationId', '[].meta'];
    expect(render(view({ answer: list, shown }))).toContain('The service sent 1 more detail');
    const on = render(view({ answer: list, shown }), { technical: true });
    expect(on).toContain('[].createdBy');
    expect(on).not.toContain('[].organizationId');
    expect(on).not.toContain('[].meta.region');
    expect(render(view({ answer: list, shown: [...shown, '[].createdBy'] }))).toBe('');
  });
});

describe('values the app could not read', () => {
  it('stay in view with technical details off, worded for the reader', () => {
    const risk = { score: 0.1, [UNREAD_FIELDS]: { topNFraudCodes: 'F1;F2' } };
    for (const technical of [false, true]) {
      const html = render(createElement(UnreadFields, { of: risk }), { technical });
      expect(html).toContain('Details the app could not read.');
      expect(html).toContain('topNFraudCodes');
      expect(html).toContain('&quot;F1;F2&quot;');
      expect(html).not.toContain('spec');
    }
    expect(render(createElement(UnreadFields, { of: risk }), { locale: 'es' })).toContain(
      'Datos que la aplicación no pudo leer.',
    );
    expect(render(createElement(NotInSpec, { value: 'critical' }))).toContain('(unexpected value)');
    expect(render(createElement(NotInSpec, { value: 'critical' }), { locale: 'es' })).toContain('(valor no previsto)');
  });
});
