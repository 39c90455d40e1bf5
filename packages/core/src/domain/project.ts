export interface Project {
  readonly id: string;
  readonly name: string;
  /** The environment's display name; the project id is the environment id in the APIs. */
  readonly environment: string;
  /** Delivery secure access (SPEC 5): published content needs a delivery key when on. */
  readonly isSecureAccess: boolean;
  /** Whether this environment is the project's production environment. */
  readonly isProduction: boolean;
  readonly createdAt: Date;
}

export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: Date;
}
