export { catalogue, type CatalogueEntry, type ErrorCode, type ErrorKind } from './catalogue.ts';
export { LecternError, isLecternError, type LecternErrorOptions, type ValidationProblem } from './lectern-error.ts';
export { statusOfKind } from './http-status.ts';
export {
  isConnectionLost,
  toManagementError,
  toDeliveryError,
  type DeliveryErrorBody,
  type ErrorResponse,
  type ManagementErrorBody,
} from './api-bodies.ts';
export { assertNever } from './assert-never.ts';
