// Debian's Chromium and the repository's flags, declared once in the test kit.
export { CHROMIUM_ARGS, chromiumExecutable } from '@verify-kit/testkit/chromium';
