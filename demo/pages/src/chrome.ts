import { sameOriginPath } from '@verify-kit/protocol';
import { api, messageOf } from './api.js';
import { fill, t, useLocale } from './text/index.js';
import type { Me } from './types.js';

/*
 * What every page shares: who is signed in, the navigation, sign-out, and a place for messages.
 */

export function $(selector: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(selector);
  if (element === null) throw new Error(`missing ${selector}`);
  return element;
}

export function showMessage(text: string, kind: 'error' | 'info' = 'error'): void {
  const box = $('#message');
  box.textContent = text;
  box.className = `message message-${kind}`;
  box.hidden = false;
}

export function clearMessage(): void {
  $('#message').hidden = true;
}

/**
 * Who is signed in, and the scenario. The page then speaks the scenario's language (the one the
 * widget and the app speak), unless it asks for English: the playground, where the scenario is
 * chosen, is the integrator's tool.
 */
export async function loadMe(options: { pageLocale?: 'scenario' | 'en' } = {}): Promise<Me | undefined> {
  try {
    const me = await api<Me>('/api/demo/me');
    if (options.pageLocale !== 'en') await useLocale(me.scenario.locale);
    renderHeader(me);
    return me;
  } catch (error) {
    showMessage(messageOf(error));
    return undefined;
  }
}

function renderHeader(me: Me): void {
  const who = document.querySelector<HTMLElement>('#who');
  const signOut = document.querySelector<HTMLButtonElement>('#sign-out');
  const nav = document.querySelector<HTMLElement>('#nav');
  if (nav) nav.hidden = me.user === null;
  if (who) who.textContent = me.user ? fill(t().signedInAs, { name: me.user.name }) : '';
  if (signOut) {
    signOut.hidden = me.user === null;
    signOut.addEventListener('click', async () => {
      try {
        await api('/api/demo/sign-out', { method: 'POST', body: {} });
        location.assign('/');
      } catch (error) {
        showMessage(messageOf(error));
      }
    });
  }
}

/** Starts a new verification session for this browser session (the kit's restart). */
export async function startOver(): Promise<void> {
  await api('/identity/session', { method: 'POST', body: { restart: true } });
}

/**
 * A same-origin path only: no open redirect from ?returnTo. The kit's shared check refuses control
 * characters (browsers strip TAB/CR/LF, so `/\t/evil` would become `//evil`) and backslashes; the
 * origin is then checked against this page's own.
 */
export function safeReturnTo(value: string | null, fallback: string): string {
  const path = value === null ? undefined : sameOriginPath(value);
  if (path === undefined || new URL(path, location.origin).origin !== location.origin) return fallback;
  return path;
}
