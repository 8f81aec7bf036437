/**
 * The demo's own words in English: the reference table `tr.ts` follows. The pages' HTML names a key
 * (`{{key}}`, vite/page-text.ts) and the build writes the English in; the scripts read the table of
 * the scenario's locale. `{name}` is filled in; `code` in backticks shows as code.
 */
export const en = {
  // Every page: the header.
  skipLink: 'Skip to the content',
  navLabel: 'Demo pages',
  navVerify: 'Verify',
  navPlayground: 'Scenarios and criteria',
  navAccount: 'Account',
  signOut: 'Sign out',
  signedInAs: 'Signed in as {name}',

  // Sign in.
  pageSignIn: 'Sign in · verify-kit demo',
  signInTitle: 'Sign in to the demo',
  signInIntro:
    'A demo account: no password, nothing leaves this machine. Change the name or e-mail if you like.',
  name: 'Name',
  email: 'E-mail',
  signIn: 'Sign in with the demo account',
  checkForm: 'Please check the form: {problems}.',
  welcome: 'Welcome back',
  welcomeName: 'Welcome back, {name}',
  welcomeIntro: 'Your account page is open only to people whose identity is verified.',
  verifyLink: 'Verify your identity',
  accountLink: 'Go to your account',

  // Verify.
  pageVerify: 'Verify your identity · verify-kit demo',
  verifyTitle: 'Verify your identity',
  verifyIntro:
    'Your account page opens once the identity verification service has approved your ID card or passport.',
  startOver: 'Start over with a new session',
  changeScenario: 'Change the scenario',
  continueToAccount: 'Continue to your account',
  phoneTitle: 'The phone',
  phoneHint:
    'The sandbox’s mobile-app simulator, already opened on this session, so you can play both roles. With a real phone you would scan the QR code instead.',
  simulatorTitle: 'Mobile app simulator',
  phoneWaiting: 'Waiting for the session…',
  phoneNoSession: 'The phone opens here once a verification session exists.',
  reviewerTitle: 'The reviewer',
  reviewerHint:
    'A person at the service is checking this document. In the sandbox, that person is you: decide.',
  approve: 'Approve',
  reject: 'Reject',
  askResubmission: 'Ask for resubmission',
  activityTitle: 'What happened behind the scenes',
  activityHint:
    'The outcome, the webhooks the demo received (with their signature check) and the status reads the kit made of the service, for this session.',
  columnTime: 'Time',
  columnWhat: 'What',
  columnDetail: 'Detail',
  nothingYet: 'Nothing yet.',
  outcomeAwaiting: 'Waiting for you to open the session in the app.',
  outcomeReview: 'The service is reviewing the document.',
  outcomeManualReview: 'A reviewer at the service is checking the document.',
  outcomeApproved: 'Approved: your account page is open.',
  outcomeRejected: 'Rejected: your account page stays closed.',
  outcomeResubmit: 'The service asks for the document again.',
  outcomeExpired: 'The session expired before it was finished.',
  outcomeError: 'The verification could not continue.',
  webhook: 'Webhook {type}',
  webhookAccepted: 'signature valid · accepted by the kit',
  statusChanged: 'Status changed',
  statusNew: '(new)',
  statusRead: 'Status read, kit → service',
  gateOn: 'Gate on {path}',
  gateOpen: 'open: approved',
  gateToVerify: 'closed: sent to /verify',
  gateNotApproved: 'closed: not approved',
  gateUnavailable: 'closed: the service could not be reached',
  gateClosed: 'closed ({answer})',
  gateFromRead: 'status read from the service',
  gateFromStored: 'from the stored decision (inside this visit)',
  scenario: 'Scenario: {contact}, {otp}, {criteria}, app in {language}, {duration}.',
  contactEmail: 'the account’s e-mail',
  contactPhone: 'the phone {phone}',
  contactNone: 'no contact detail (contact-less)',
  otpOn: 'validated with a one-time password',
  otpOff: 'no one-time password',
  criteriaNone: 'no approval criteria',
  // A count's forms: the one Intl.PluralRules chooses for the page's language (`_other` if absent).
  criteria_one: '{n} approval criterion',
  criteria_other: '{n} approval criteria',
  minutes_one: '{n} minute',
  minutes_other: '{n} minutes',
  languageEn: 'English',
  languageTr: 'Turkish',

  // Account.
  pageAccount: 'Your account · verify-kit demo',
  accountTitle: 'Your account',
  accountChecking: 'Checking your verification…',
  identity: 'Identity',
  accountOpen: 'Welcome, {name}. Your identity is verified, so your account is open.',
  accountVerified: 'Verified and approved by the identity verification service',
  accountClosed: 'Your verification is not approved (any more), so your account stays closed.',
  forget: 'Forget my verification',
  accountHint:
    'This page is behind `kit.requireApproved()`: the server re-reads your verification from the service on every visit.',

  // The pages of errors.
  pageNotFound: 'Page not found · verify-kit demo',
  notFoundTitle: 'This page does not exist',
  notFoundText: 'The address may be mistyped, or the page has moved.',
  pageError: 'Something went wrong · verify-kit demo',
  errorTitle: 'Something went wrong',
  errorText: 'The demo could not finish this request. Please try again in a moment.',
  toStart: 'Go to the start',
  pageUnavailable: 'Service not reachable · verify-kit demo',
  unavailableTitle: 'The identity verification service is not reachable',
  unavailableText:
    'Your account page opens only once the service confirms your verification, and right now it cannot be asked. Nothing is wrong with your account.',
  unavailableLater: 'Please try again in a few minutes.',
  tryAgain: 'Try again',
  backToVerification: 'Back to the verification',

  // The demo server's answers, in words.
  apiSignInRequired: 'Your sign-in has ended. Please sign in again.',
  apiCrossSite:
    'The browser sent this from another site, so the demo refused it. Reload the page and try again.',
  apiNoSession: 'No verification has been started yet.',
  apiNoSimulator: 'This demo talks to a real service: open the session with the mobile app on your phone.',
  apiNotInReview: 'This verification is no longer waiting for a reviewer.',
  apiInternal: 'Something went wrong on the demo server. Please try again in a moment.',
  apiUnreachable:
    'The identity verification service cannot be reached right now. Please try again in a moment.',
  apiNetwork: 'The demo server cannot be reached. Is it still running? Check your connection and reload.',
  apiGeneric: 'Something went wrong. Please try again.',
  apiUnexpected: 'Something unexpected went wrong. Please reload the page.',
};

/** Plural forms some languages have beside `one` and `other` (Arabic has all of them). */
type MorePlurals = `${'criteria' | 'minutes'}_${'zero' | 'two' | 'few' | 'many'}`;

/** A key every table has. */
export type DemoKey = keyof typeof en;

/** Every key of the English table (a table without one fails the typecheck), and any plural form. */
export type DemoText = Record<DemoKey, string> & Partial<Record<MorePlurals, string>>;
