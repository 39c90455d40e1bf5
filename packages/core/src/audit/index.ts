export * from './audit-entry.ts';
export * from './audit-context.ts';
export * from './audit-collector.ts';
export type { AuditLogRepository, AuditQuery, AuditTrail } from './audit-port.ts';
export * from './audit-json.ts';
export * from './audit-log.ts';
