export { checkPassword, hashPassword, verifyPassword, minPasswordLength, maxPasswordLength } from './passwords.ts';
export {
  authenticatePerson,
  listPersonProjects,
  personSessionIdleMs,
  readPersonSession,
  signInPerson,
  signOutEverywhere,
  signOutPerson,
  type PersonProject,
  type PersonSessionState,
  type StartedSession,
} from './sessions.ts';
export {
  acceptPersonLink,
  describePersonLink,
  issuePersonLink,
  linkLifetimeMs,
  requestPasswordReset,
  type IssuedLink,
} from './links.ts';
export {
  grantableRoles,
  identityEmail,
  signInWithIdentity,
  type GrantableRole,
  type IdentityGrant,
  type IdentitySignedIn,
  type IdentitySignInInput,
} from './identity-sign-in.ts';
