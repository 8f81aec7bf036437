/** English strings of `<verify-identity>`: the reference table every other locale follows. */
export const en = {
  idleTitle: 'Verify your identity',
  idleText:
    'Use the identity app on your phone to show your ID card or passport. It takes about two minutes.',
  start: 'Start verification',
  startingTitle: 'Preparing your verification…',
  awaitingTitle: 'Continue in the app',
  awaitingText: 'Scan the QR code with your phone, or open the app on this device.',
  qrAlt: 'QR code that opens this verification in the identity app',
  openApp: 'Open in the app',
  codeLabel: 'Or enter this code in the app:',
  copy: 'Copy code',
  copied: 'Code copied',
  copyFailed: 'Could not copy the code',
  timeLeft: 'Time left: {time}',
  reviewTitle: 'Checking your document…',
  reviewText: 'This usually takes a minute. You can keep this page open.',
  approvedTitle: 'Your identity is verified',
  rejectedTitle: 'We could not verify your identity',
  rejectedText: 'Your document was not accepted.',
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

/** Every string the element shows; `{time}` in `timeLeft` is replaced by the time left. */
export type VerifyIdentityStrings = Record<keyof typeof en, string>;
