import diagnosticsChannel from 'node:diagnostics_channel';
import type { ActivityLog } from './activity-log.js';

/*
 * Records the kit's status reads of the upstream (GET /api/v1/identifications/<id>) through
 * undici's diagnostics channels, so the playground can show how often the gate and the widget's
 * polls really reach the service. Only method, path and answer are kept: never headers.
 */

interface UndiciRequest {
  origin?: string | URL;
  method?: string;
  path?: string;
}

const IDENTIFICATION_PATH = /^\/api\/v1\/identifications\/([^/?#]+)(?:[?#].*)?$/;

export function observeUpstreamReads(upstreamBaseUrl: string, log: ActivityLog): () => void {
  const origin = new URL(upstreamBaseUrl).origin;
  const prefix = new URL(upstreamBaseUrl).pathname.replace(/\/+$/, '');

  const identificationOf = (request: UndiciRequest): string | undefined => {
    if (request.method !== 'GET' || request.origin === undefined || request.path === undefined)
      return undefined;
    if (new URL(String(request.origin)).origin !== origin) return undefined;
    if (!request.path.startsWith(prefix)) return undefined;
    const match = IDENTIFICATION_PATH.exec(request.path.slice(prefix.length));
    return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
  };

  const record = (request: UndiciRequest, outcome: number | string) => {
    const id = identificationOf(request);
    if (id === undefined) return;
    log.add(id, {
      kind: 'status_call',
      at: new Date().toISOString(),
      method: 'GET',
      path: `/api/v1/identifications/${id}`,
      outcome,
    });
  };
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    record(request, response.statusCode);
  };
  const onError = (message: unknown) => {
    const { request, error } = message as { request: UndiciRequest; error: { code?: string; name?: string } };
    record(request, error.code ?? error.name ?? 'network error');
  };

  diagnosticsChannel.subscribe('undici:request:headers', onHeaders);
  diagnosticsChannel.subscribe('undici:request:error', onError);
  return () => {
    diagnosticsChannel.unsubscribe('undici:request:headers', onHeaders);
    diagnosticsChannel.unsubscribe('undici:request:error', onError);
  };
}
