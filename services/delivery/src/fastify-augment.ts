import type { Actor } from '@lectern/core';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook for every request under `/{project_id}/`. */
    actor: Actor | null;
  }
}
