import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'wouter';
import { ApiError } from '../../../api/client.ts';
import { useSession } from '../../../api/session.ts';
import '../../../styles/sign-in.css';
import '../../../styles/dialog.css';
import './model-settings.css';
import { ModelLayout } from '../model-nav.tsx';

/*
 * What the model settings screens (taxonomies, collections, spaces, languages, workflows,
 * preview URLs) share: the route's project, who may change what, the page shell, and the one
 * way a change is saved — a Management API call whose refusal is shown next to the field it
 * concerns, in the server's own words (one source of validation: the screens check nothing the
 * server does not).
 */

export function useProjectParams(): { projectId: string; language: string } {
  const params = useParams<{ projectId: string; language: string }>();
  return { projectId: params.projectId ?? '', language: params.language ?? '' };
}

/**
 * Whether the person's roles give `permission` in the project: `manage_model` for the model,
 * `manage_environment` for the preview configuration. Without it the screen is read-only (core
 * refuses a forged change by the same rule).
 */
export function useMayChange(projectId: string, permission: 'manage_model' | 'manage_environment'): boolean {
  const session = useSession();
  return session.data?.projects.find((p) => p.id === projectId)?.permissions.includes(permission) ?? false;
}

/**
 * A model settings screen inside the Content model's layout (its sub-navigation beside the page's
 * one `<main>`): the title, a note when read-only, the screen.
 */
export function SettingsScreen(props: {
  readonly title: string;
  readonly mayChange: boolean;
  readonly intro: string;
  readonly children: ReactNode;
}) {
  return (
    <ModelLayout title={props.title}>
      <div className="model-settings">
        <p className="hint">{props.intro}</p>
        {!props.mayChange && (
          <p className="read-only-note" role="note">
            Your role lets you view this but not change it.
          </p>
        )}
        {props.children}
      </div>
    </ModelLayout>
  );
}

export interface Save {
  /** Runs a change; on success refreshes the project's model queries and answers true. */
  readonly run: (change: () => Promise<unknown>) => Promise<boolean>;
  readonly error: unknown;
  readonly isPending: boolean;
  readonly clear: () => void;
}

/** One change at a time with its refusal kept for the fields to show. */
export function useSave(projectId: string): Save {
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [isPending, setPending] = useState(false);
  return {
    error,
    isPending,
    clear: () => setError(null),
    run: async (change) => {
      setPending(true);
      setError(null);
      try {
        await change();
        await queryClient.invalidateQueries({ queryKey: ['model', projectId] });
        return true;
      } catch (e) {
        setError(e);
        return false;
      } finally {
        setPending(false);
      }
    },
  };
}

/**
 * The messages of a refusal that concern a field: validation errors whose path is `field` or
 * lies under it (`steps[1].color` concerns `steps[1]`), matched by `matches`. A refusal with no
 * validation error on a path (a codename already taken, a permission) goes to the field marked
 * `isCatchAll`, so every message is shown once, next to the form that caused it.
 */
export function messagesFor(error: unknown, field: string, isCatchAll = false): string[] {
  if (!(error instanceof ApiError)) return error && isCatchAll ? [String((error as Error).message ?? error)] : [];
  const list = error.body.validation_errors ?? [];
  const under = (p: string) =>
    p === field || p.startsWith(`${field}.`) || p.startsWith(`${field}[`) || p.endsWith(`.${field}`);
  const mine = list.filter((v) => v.path !== undefined && under(v.path)).map((v) => v.message);
  if (!isCatchAll) return mine;
  const unplaced = list.filter((v) => v.path === undefined).map((v) => v.message);
  return [error.body.message, ...unplaced, ...mine];
}

/** The refusal's messages for a field, with the id its input names in `aria-describedby`. */
export function FieldProblem(props: { readonly id: string; readonly messages: readonly string[] }) {
  if (props.messages.length === 0) return null;
  return (
    <p className="field-problem" id={props.id} role="alert">
      {props.messages.join(' ')}
    </p>
  );
}

/** Props for an input the problem with `id` concerns: invalid and described by it. */
export function problemProps(id: string, messages: readonly string[]) {
  return messages.length === 0 ? {} : { 'aria-invalid': true as const, 'aria-describedby': id };
}

/**
 * Sends PATCH operations through `send`. The server names a refused operation by its index
 * (`[1].value`); the paths of a refusal are renamed to the operation's `property_name`
 * (`codename`), so each message is shown at the field that operation came from.
 */
export async function sendOps(
  ops: readonly Readonly<Record<string, unknown>>[],
  send: (ops: readonly Readonly<Record<string, unknown>>[]) => Promise<unknown>,
): Promise<unknown> {
  try {
    return await send(ops);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.body.validation_errors) throw error;
    const fieldOf = (path: string | undefined) => {
      const index = path === undefined ? null : /^\[(\d+)\]/.exec(path)?.[1];
      const property = index == null ? undefined : ops[Number(index)]?.['property_name'];
      return typeof property === 'string' ? property : path;
    };
    throw new ApiError(error.status, {
      ...error.body,
      validation_errors: error.body.validation_errors.map((v) => {
        const path = fieldOf(v.path);
        return path === undefined ? { message: v.message } : { message: v.message, path };
      }),
    });
  }
}
