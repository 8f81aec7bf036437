import type { RequestHandler } from 'express';

/**
 * A strict Content-Security-Policy: scripts and styles only from the demo itself (no inline
 * script anywhere), images from itself, and frames only from the sandbox's origin (the phone
 * simulator beside the widget).
 */
export function securityHeaders(frameOrigin: string | undefined): RequestHandler {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    `frame-src ${frameOrigin ?? "'none'"}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    next();
  };
}
