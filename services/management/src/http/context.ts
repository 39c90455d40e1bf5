import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Actor, CoreDeps } from '@lectern/core';
import type { Logger, ProcessMetrics } from '@lectern/http-kit';

/** Per-request state kept in `res.locals`. */
export interface RequestLocals {
  requestId: string;
  actor?: Actor;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** What the handlers of this service need. */
export interface ManagementDeps {
  readonly core: CoreDeps;
  readonly metrics: ProcessMetrics;
  readonly logger: Logger;
}

/** Assigns the request id, and records the request in the metrics when it ends. */
export function requestContext(deps: ManagementDeps, service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    locals(res).requestId = randomUUID();
    res.setHeader('x-request-id', locals(res).requestId);
    res.on('finish', () => {
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      deps.metrics.observeRequest({
        service,
        method: req.method,
        route,
        status: res.statusCode,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}
