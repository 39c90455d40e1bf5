export {
  beatPresence,
  leavePresence,
  readPresence,
  presenceLimits,
  type PresenceJson,
  type PresencePersonJson,
} from './presence.ts';
