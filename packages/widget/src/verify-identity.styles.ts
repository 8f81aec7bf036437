import { unsafeCSS } from 'lit';

// Colours meet WCAG AA (4.5:1 for text) on the default background in light and dark.
// A constant of ours with nothing interpolated: unsafeCSS is as safe as css`` here, and leaves out the
// tag's checking of interpolated values (≈ 150 B min+gzip).
export const styles = unsafeCSS(`
  :host {
    --_bg: var(--verify-identity-background, light-dark(#fff, #1b1b1f));
    --_fg: var(--verify-identity-color, light-dark(#1b1b1f, #e4e2e6));
    --_muted: var(--verify-identity-muted-color, light-dark(#44474f, #c4c6d0));
    --_accent: var(--verify-identity-accent, light-dark(#0b57d0, #a8c7fa));
    --_on-accent: var(--verify-identity-on-accent, light-dark(#fff, #062e6f));
    --_ok: var(--verify-identity-success, light-dark(#146c2e, #6dd58c));
    --_bad: var(--verify-identity-danger, light-dark(#b3261e, #ffb4ab));
    --_line: var(--verify-identity-border, light-dark(#74777f, #8e9099));
    --_focus: var(--verify-identity-focus-ring, var(--_accent));
    --_radius: var(--verify-identity-radius, 12px);
    --_space: var(--verify-identity-spacing, 16px);
    /* light-dark() above follows the person's preference, as prefers-color-scheme does. */
    color-scheme: light dark;
    display: block;
    max-width: 28rem;
    color: var(--_fg);
    font: 1rem/1.5 var(--verify-identity-font, system-ui, sans-serif);
  }
  :host([hidden]) {
    display: none;
  }
  [part~='base'],
  .qrcode {
    display: flex;
    flex-direction: column;
    gap: var(--_space);
  }
  [part~='base'] {
    padding: calc(var(--_space) * 1.5);
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    background: var(--_bg);
  }
  p {
    margin: 0;
  }
  [part~='title'] {
    font-size: 1.25em;
    font-weight: 600;
  }
  .muted {
    color: var(--_muted);
  }
  .ok {
    color: var(--_ok);
  }
  .bad {
    color: var(--_bad);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) / 2);
  }
  [part~='button'] {
    padding: 0.5em 1.25em;
    border: 2px solid var(--_accent);
    border-radius: calc(var(--_radius) * 0.75);
    background: var(--_accent);
    color: var(--_on-accent);
    font: inherit;
    font-weight: 600;
    text-align: center;
    text-decoration: none;
    cursor: pointer;
  }
  .secondary {
    background: transparent;
    color: var(--_accent);
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  [part~='qr'] {
    align-self: center;
    width: 12rem;
    height: 12rem;
    padding: 8px;
    border-radius: 8px;
    background: #fff;
  }
  [part~='code'] {
    font: 700 2em/1.2 ui-monospace, monospace;
    letter-spacing: 0.12em;
  }
  .spinner {
    width: 1.5em;
    height: 1.5em;
    border: 3px solid var(--_line);
    border-top-color: var(--_accent);
    border-radius: 50%;
    animation: spin 1s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .urgent {
    color: var(--_bad);
    font-weight: 600;
  }
  a {
    color: var(--_accent);
  }
  input {
    font: inherit;
    padding: 0.25em 0.5em;
  }
  /* A desktop: the QR first, no "Open in the app" (custom schemes do nothing without the app). */
  [part~='deep-link'] {
    display: none;
  }
  /* A phone-sized or touch screen: opening the app on this device is the primary action. */
  @media (pointer: coarse), (max-width: 40rem) {
    [part~='deep-link'] {
      display: block;
      order: -1;
      background: var(--_accent);
      color: var(--_on-accent);
    }
    [part~='qr'] {
      width: 9rem;
      height: 9rem;
    }
  }
`);
