import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../src/cli-options.js';

describe('parseDemoArgs', () => {
  it('defaults to the embedded sandbox with no options', () => {
    expect(parseDemoArgs([], {})).toEqual({ help: false, options: {} });
  });

  it('takes --port (0 for a free one) and --host', () => {
    expect(parseDemoArgs(['--port', '0', '--host', '0.0.0.0'], {})).toEqual({
      help: false,
      options: { port: 0, host: '0.0.0.0' },
    });
    expect(parseDemoArgs(['--port=3001'], {})).toMatchObject({ options: { port: 3001 } });
  });

  it('takes --dev: the pages from their sources through Vite', () => {
    expect(parseDemoArgs(['--dev'], {})).toEqual({ help: false, options: { dev: true } });
  });

  it("takes --metrics: the kit's OpenTelemetry series at GET /metrics", () => {
    expect(parseDemoArgs(['--dev', '--metrics'], {})).toEqual({
      help: false,
      options: { dev: true, metrics: true },
    });
  });

  it('refuses a port that is not one, saying which flag', () => {
    expect(() => parseDemoArgs(['--port', 'abc'], {})).toThrow('--port must be a number');
    expect(() => parseDemoArgs(['--port', '70000'], {})).toThrow('--port must be 0 to 65535');
    expect(() => parseDemoArgs(['--port', '1.5'], {})).toThrow('--port must be a whole number');
  });

  it('refuses unknown flags', () => {
    expect(() => parseDemoArgs(['--prot', '3000'], {})).toThrow(/Unknown option '--prot'/);
  });

  it('points at a real service with IDV_BASE_URL and IDV_API_KEY, the webhook secret optional', () => {
    const env = {
      IDV_BASE_URL: 'https://idv.example.com',
      IDV_API_KEY: 'k_live',
      IDV_WEBHOOK_SECRET: 'whsec_abc',
    };
    expect(parseDemoArgs([], env)).toEqual({
      help: false,
      options: {
        upstream: { baseUrl: 'https://idv.example.com', apiKey: 'k_live', webhookSecret: 'whsec_abc' },
      },
    });
  });

  it('refuses half a real-service configuration without echoing the key', () => {
    expect(() => parseDemoArgs([], { IDV_API_KEY: 'sk_secret_value' })).toThrow(
      'set IDV_BASE_URL and IDV_API_KEY together',
    );
    try {
      parseDemoArgs([], { IDV_API_KEY: 'sk_secret_value', IDV_BASE_URL: 'not a url' });
    } catch (error) {
      expect(String(error)).not.toContain('sk_secret_value');
      expect(String(error)).toContain('IDV_BASE_URL must be an http(s) URL');
    }
  });

  it('maps the other variables, ignoring empty ones', () => {
    const env = {
      SESSION_SECRET: 'a-long-enough-secret-value',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TRUST_PROXY: '1',
      REVIEW_DELAY_MS: '0',
      IDV_WORKFLOW_ID: '',
    };
    expect(parseDemoArgs([], env).help === false && parseDemoArgs([], env)).toMatchObject({
      options: {
        sessionSecret: env.SESSION_SECRET,
        redisUrl: env.REDIS_URL,
        trustProxy: '1',
        reviewDelayMs: 0,
      },
    });
    expect(() => parseDemoArgs([], { SESSION_SECRET: 'short' })).toThrow('at least 16 characters');
  });

  it('takes DRAIN_MS, how long a SIGTERM drains, refusing what is not a whole number of ms', () => {
    expect(parseDemoArgs([], { DRAIN_MS: '1500' })).toMatchObject({ options: { drainMs: 1500 } });
    expect(() => parseDemoArgs([], { DRAIN_MS: '1.5' })).toThrow('DRAIN_MS must be a whole number');
    expect(() => parseDemoArgs([], { DRAIN_MS: '700000' })).toThrow('DRAIN_MS must be 0 to 600000');
  });

  it('answers --help', () => {
    expect(parseDemoArgs(['--help'], {})).toEqual({ help: true });
  });
});
