import type { Translate } from '../../i18n/index';
import { messages } from './messages';

/** The translator of the Settings screen's messages, as each panel receives it. */
export type T = Translate<(typeof messages)['en']>;
