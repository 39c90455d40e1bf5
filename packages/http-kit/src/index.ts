export { createProcessMetrics, type ProcessMetrics } from './metrics.ts';
export { createReadiness, type Readiness } from './readiness.ts';
export { createLogger, type Logger } from './logger.ts';
export { createFastifyService, type FastifyServiceOptions } from './fastify-service.ts';
export { listen, closeGracefully, type Listening } from './listen.ts';
export {
  registerConsumerLag,
  registerIndexerMetrics,
  registerIndexLag,
  registerRelayMetrics,
} from './event-metrics.ts';
export { runServiceMain, type ServiceStart } from './service-main.ts';
export { listenConsumerProbes, listenProbes, listenStep } from './probe-listener.ts';
export { answerClientErrors, answerClientErrorsOf, type ToErrorResponse } from './client-errors.ts';
export { checkRequest, checkUrl, parserMaxHeaderBytes } from './url-check.ts';
export { jsonNestingProblem, maxJsonDepth } from './json-depth.ts';
export { createLiveness, livenessOfProcess, type Liveness, type LivenessAnswer } from './liveness.ts';
export {
  applyServerTimeouts,
  defaultServerOptions,
  serverOptionsOf,
  serverSettings,
  type ServerOptions,
} from './server-settings.ts';
export {
  attachToSupervisor,
  isSupervisedChild,
  superviseSelf,
  supervisorAckMs,
  supervisorMarginMs,
} from './supervisor.ts';
export { createSmtpSender, type MailSender } from './mail.ts';
export { AddressRefusedError, guardRequest, isAddressAllowed } from './address-guard.ts';
