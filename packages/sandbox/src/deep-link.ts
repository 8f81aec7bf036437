/**
 * The deep link that opens a session in the service's app. 'spec': the spec's order,
 * `<scheme>://app-url/<base>/verification-session/<id>`; 'sdk': the order the vendor's mobile SDK
 * documents, `<scheme>://verification-session/<id>/app-url/<host>` (the base as a bare host).
 */
export function deepLinkOf(
  config: { appScheme: string; deepLinkStyle: 'spec' | 'sdk' },
  baseUrl: string,
  sessionId: string,
): string {
  if (config.deepLinkStyle === 'sdk') {
    return `${config.appScheme}://verification-session/${sessionId}/app-url/${new URL(baseUrl).host}`;
  }
  return `${config.appScheme}://app-url/${baseUrl}/verification-session/${sessionId}`;
}
