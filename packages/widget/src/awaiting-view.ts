import type { SendLinkChannel, SessionResponseBody } from '@verify-kit/protocol';
import { html, nothing, type TemplateResult } from 'lit';
import type { VerifyIdentityStrings } from './strings.en.js';
import { timeLeftText, URGENT_MS } from './time-left.js';

/** What the awaiting view needs from the element. */
export interface AwaitingContext {
  t: VerifyIdentityStrings;
  lang: string;
  session: SessionResponseBody;
  /** ms until the session expires (NaN: unknown). */
  timeLeft: number;
  /** ms until the link may be sent again (≤ 0: now). */
  cooldown: number;
  copy: '' | 'copied' | 'copyFailed';
  onCopy: () => void;
  /** Why the last send was refused (a key of the strings), '' when it was not. */
  refused: '' | 'sendFailed' | 'errorBusy';
  onSend: (channel: SendLinkChannel) => void;
}

/** The deep link: the app's own scheme, never one that runs code or reads local data. */
const APP_SCHEME = /^(?!(javascript|data|vbscript|file|blob):)/;
/** The web page: http(s) only. */
const PAGE_SCHEME = /^https?:$/;

/** `url` if it parses and its scheme (lower case once parsed) passes `scheme`, else nothing to follow. */
const safeLink = (url: string, scheme: RegExp) =>
  URL.canParse(url) && scheme.test(new URL(url).protocol) ? url : '#';

/**
 * The session's handoff: on a phone or touch screen the deep link first (CSS orders it), on a desktop
 * the QR first and no bare "Open in the app"; always the session's web page for people without the
 * app; the code; the time left; and the send-link form when the kit allows it.
 */
export function awaitingView(c: AwaitingContext): TemplateResult {
  const { t, session } = c;
  const code = session.sessionCode;
  return html`<p part="text" class="muted">${t.awaitingText}</p>
    <div class="qrcode">
      <img part="qr" src=${session.qrImage} alt=${t.qrAlt} width="192" height="192" />
      <a part="button deep-link" href=${safeLink(session.deepLink, APP_SCHEME)}>${t.openApp}</a>
    </div>
    <a part="web-page" href=${safeLink(session.sessionPageLink, PAGE_SCHEME)} target="_blank" rel="noopener">${t.webPage}</a>
    <div>
      <p class="muted">${t.codeLabel}</p>
      <p part="code"><span aria-hidden="true" dir="ltr">${code.slice(0, 4)} ${code.slice(4)}</span><span class="sr">${[...code].join(' ')}</span></p>
    </div>
    <div class="row">
      <button part="button copy" class="secondary" @click=${c.onCopy}>${t.copy}</button>
      <span class=${c.copy === 'copied' ? 'ok' : 'bad'}>${c.copy ? t[c.copy] : ''}</span>
    </div>
    ${
      Number.isNaN(c.timeLeft)
        ? nothing
        : html`<p part="time" class=${c.timeLeft <= URGENT_MS ? 'urgent' : 'muted'}>${timeLeftText(c.timeLeft, t, c.lang)}</p>`
    }
    ${session.sendLink.length ? sendLinkForm(c) : nothing}`;
}

function sendLinkForm(c: AwaitingContext): TemplateResult {
  const { t, session } = c;
  const waiting = c.cooldown > 0;
  // No address field: the link goes to the person's own contact, which the kit names (masked). Each
  // button is named by its text and its contact, so two of them never read the same.
  return html`<div part="send-link">
    <p class="muted">${t.sendTitle}</p>
    ${session.sendLink.map(
      ({ channel, to }) => html`<p class="row">
        <span id="l-${channel}">${t[channel]}: <bdi>${to}</bdi></span>
        <button id="b-${channel}" aria-labelledby="b-${channel} l-${channel}" part="button send" class="secondary" aria-disabled=${waiting ? 'true' : 'false'} @click=${() => waiting || c.onSend(channel)}>${
          waiting
            ? t.resendIn.replace('{n}', String(Math.ceil(c.cooldown / 1000)))
            : session.sentTo
              ? t.resend
              : t.send
        }</button>
      </p>`,
    )}
    ${
      c.refused
        ? html`<p class="bad" role="alert">${t[c.refused]}</p>`
        : session.sentTo
          ? html`<p class="ok">${t.sentTo.replace('{to}', session.sentTo)}</p>`
          : nothing
    }
  </div>`;
}
