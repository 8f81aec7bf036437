/** English strings of `<verify-identity>`: the reference table every other locale follows. */
export const en = {
  /** The writing direction of the language: `ltr` or `rtl` (the element lays itself out so). */
  dir: 'ltr',
  idleTitle: 'Verify your identity',
  idleText:
    'Use the identity app on your phone to show your ID card or passport. It takes about two minutes.',
  start: 'Start verification',
  startingTitle: 'Preparing your verification…',
  awaitingTitle: 'Continue in the app',
  awaitingText: 'Scan the QR code with your phone, or open the app on this device.',
  qrAlt: 'QR code that opens this verification in the identity app',
  openApp: 'Open in the app',
  webPage: 'No app? Continue on the web page',
  codeLabel: 'Or enter this code in the app:',
  copy: 'Copy code',
  copied: 'Code copied',
  copyFailed: 'Could not copy the code',
  timeLeft: 'Time left: {time}',
  minutes_one: '{n} minute',
  minutes_other: '{n} minutes',
  seconds_one: '{n} second',
  seconds_other: '{n} seconds',
  sendTitle: 'Or get the link sent to you',
  email: 'E-mail address',
  sms: 'Phone number',
  send: 'Send link',
  sentTo: 'We sent the link to {to}.',
  resend: 'Send again',
  resendIn: 'Send again in {n} s',
  sendFailed: 'We could not send the link. Use the QR code or the code above.',
  reviewTitle: 'Checking your document…',
  reviewText: 'This usually takes a minute. You can keep this page open.',
  manualTitle: 'A person is checking your document',
  manualText: 'This can take a while. You can close this page: we will remember.',
  approvedTitle: 'Your identity is verified',
  rejectedTitle: 'We could not verify your identity',
  rejectedText: 'Your document was not accepted. You can try again with a new verification.',
  resubmitTitle: 'Please try again',
  resubmitText: 'Your document could not be read. Continue in the app to send it again, or start over.',
  continue: 'Continue',
  restart: 'Start again',
  expiredTitle: 'This verification has expired',
  expiredText: 'Start a new one to continue.',
  newSession: 'Start a new verification',
  errorTitle: 'Something went wrong',
  errorNetwork: 'We could not reach the server. Check your connection and try again.',
  errorBusy: 'Too many attempts. Wait a moment and try again.',
  errorNoSession: 'No verification is in progress. Start a new one.',
  errorUnavailable: 'The verification service is not available right now. Try again in a few minutes.',
  errorGeneric: 'Something unexpected happened. Try again.',
  retry: 'Try again',
};

/** Plural forms some languages have beside `one` and `other` (Arabic has all of them). */
type MorePlurals = `${'minutes' | 'seconds'}_${'zero' | 'two' | 'few' | 'many'}`;

/**
 * Every string the element shows: every key of the English table (a table without one fails the
 * typecheck). `{time}` in `timeLeft` is one of `minutes_*` / `seconds_*` (the form Intl.PluralRules
 * chooses for the language, `_other` when the table has no such form), `{n}` a number, `{to}` the
 * masked contact.
 */
export type VerifyIdentityStrings = Record<keyof typeof en, string> & Partial<Record<MorePlurals, string>>;
