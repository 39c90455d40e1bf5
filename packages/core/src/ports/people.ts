/**
 * What the store keeps for people who sign in to the editor (issue 28): their password hashes,
 * their one-time links and their sessions. Secrets are never stored: a link or session is found
 * by the digest of its random token (`tokenHash`, `idHash`: base64url SHA-256, computed by core),
 * so a copy of the database signs no one in. Sessions live in the store, not in a process, so
 * sign-out (everywhere) holds across replicas and restarts.
 */

export type PersonLinkPurpose = 'invite' | 'reset';

export interface PersonLink {
  readonly tokenHash: string;
  readonly userId: string;
  /** The project the link was issued for (its name is shown on the accept page); null: none. */
  readonly projectId: string | null;
  readonly purpose: PersonLinkPurpose;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** When it was accepted; a used link is never accepted again. */
  readonly usedAt: Date | null;
}

export interface PersonSession {
  readonly idHash: string;
  readonly userId: string;
  /** The CSRF token every change of this session carries (not a secret from its own browser). */
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date;
}

export interface PeopleRepository {
  /** The user's password hash (a PHC string), or null when they have not chosen one. */
  passwordHash(userId: string): Promise<string | null>;
  /** Sets (or replaces) the user's password hash. */
  setPasswordHash(input: { userId: string; hash: string; at: Date }): Promise<void>;

  /** Stores a new link (its `tokenHash` is new; a clash is a conflict). */
  insertLink(link: PersonLink): Promise<void>;
  /** The link with that token digest, used or not, or null. */
  findLink(tokenHash: string): Promise<PersonLink | null>;
  /**
   * Marks the link used at `at` unless it already is or has expired by then; true when this call
   * marked it. Atomic: of two concurrent calls for one link, at most one gets true.
   */
  useLink(tokenHash: string, at: Date): Promise<boolean>;
  /** Marks every unused link of the user used at `at` (a password was just set); returns how many. */
  retireLinksOfUser(userId: string, at: Date): Promise<number>;

  insertSession(session: PersonSession): Promise<void>;
  /** The session with that id digest, or null. */
  findSession(idHash: string): Promise<PersonSession | null>;
  /** Records a use of the session (its idle time starts again). Nothing when absent. */
  touchSession(idHash: string, at: Date): Promise<void>;
  /** Ends one session; true when it existed. */
  deleteSession(idHash: string): Promise<boolean>;
  /** Ends every session of the user; returns how many ended. */
  deleteSessionsOfUser(userId: string): Promise<number>;
  /** Ends every session last used before `before` (idle ones); returns how many ended. */
  deleteSessionsIdleSince(before: Date): Promise<number>;
}
