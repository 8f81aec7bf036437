import { LOCALES as SERVICE_LOCALES, type Locale as ServiceLocale } from '@verify-kit/client/fetch';
import type { Locale } from '@verify-kit/protocol';

/**
 * The language the service's app is asked for: the widget's when the service speaks it (its spec
 * allows `en` and `tr` only), else English. The widget itself still speaks the person's language.
 */
export function serviceLocale(locale: Locale | undefined): ServiceLocale {
  return (SERVICE_LOCALES as readonly string[]).includes(locale ?? '') ? (locale as ServiceLocale) : 'en';
}
